/** Types of generate-sources.mjs, for the tests that hold the generated lists to the tree. */
export const TABLES_FILE: string;
export const OPS_RECORD_KINDS_FILE: string;
export const LEDGER_RECORD_KINDS_FILE: string;
export const OPS_RECORDS_DIR: string;
export const LEDGER_SRC: string;
export const OPS_ROUTES_FILE: RegExp;
export function tablesSource(root?: string): string;
export function opsRecordModules(root?: string): Array<{ module: string; kind: string }>;
export function opsRecordKindsSource(root?: string): string;
export function ledgerKindDeclarations(root?: string): Array<{ file: string; name: string }>;
export function ledgerRecordKindsSource(root?: string): string;
export function generatedSources(root?: string): Array<{ file: string; text: string }>;
export function writeGeneratedSources(root?: string): string[];
