import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './index.js';

describe('WEBHOOK_ALLOWED_PORTS', () => {
  it('defaults to 443 and the unprivileged ports', () => {
    expect(loadConfig({}).webhookAllowedPorts).toEqual([
      { from: 443, to: 443 },
      { from: 1024, to: 65535 },
    ]);
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: '' }).webhookAllowedPorts).toEqual(loadConfig({}).webhookAllowedPorts);
  });

  it('reads a comma list of single ports and ranges, forgiving spaces', () => {
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: ' 443, 8443 ,9000-9100,' }).webhookAllowedPorts).toEqual([
      { from: 443, to: 443 },
      { from: 8443, to: 8443 },
      { from: 9000, to: 9100 },
    ]);
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: '1-65535' }).webhookAllowedPorts).toEqual([{ from: 1, to: 65535 }]);
  });

  it.each(['0', '65536', '443,0', '1024-70000', '9100-9000', 'https', '443;8443', '-443', '443-', ',', '1e3', '00000443000'])(
    'refuses to start on %j, naming the variable',
    (value) => {
      expect(() => loadConfig({ WEBHOOK_ALLOWED_PORTS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ WEBHOOK_ALLOWED_PORTS: value })).toThrow(/^WEBHOOK_ALLOWED_PORTS: must be a comma-separated list of ports/);
    },
  );
});
