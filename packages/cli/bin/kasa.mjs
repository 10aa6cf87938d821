#!/usr/bin/env node
// `kasa` as an installed bin: runs the TypeScript entry through tsx, the same as `npx tsx packages/cli/src/main.ts`.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
