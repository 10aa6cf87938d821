import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import winston from 'winston';
import { createLogger, maskIban, redactString } from '../src/index.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ service: 'test', level: 'debug', transports: [new winston.transports.Stream({ stream })] });
  return { logger, text: () => lines.join('') };
}

const API_KEY = 'sk_live_bahis-x_Zx9vQ2kLmN4pR7sT1uV3wY5aB8cD0eF2gH4jK6mN8pQ';
const WEBHOOK_SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';
const IBAN = 'TR330006100519786457841326';
const SPACED_IBAN = 'TR33 0006 1005 1978 6457 8413 26';

describe('log redaction', () => {
  it("removes an operator's second-factor secret, enrollment link and recovery codes", () => {
    const { logger, text } = capture();
    const uri = 'otpauth://totp/Kasa:ayse%40kasa.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Kasa';
    logger.info(`enrolled with ${uri}`, { totpSecret: 'JBSWY3DPEHPK3PXP', recoveryCodes: ['abcde-fghij'], otp: '123456', otpauthUri: uri });
    const out = text();
    for (const secret of ['JBSWY3DPEHPK3PXP', 'abcde-fghij', '123456']) expect(out).not.toContain(secret);
    expect(out).toContain('otpauth://[REDACTED]');
  });

  it('removes API keys, webhook secrets, bearer tokens and IBANs from messages', () => {
    const { logger, text } = capture();
    logger.info(`key ${API_KEY} secret ${WEBHOOK_SECRET} header Bearer kop_operator-token-123 iban ${IBAN} and ${SPACED_IBAN}`);
    const out = text();
    for (const secret of [API_KEY, WEBHOOK_SECRET, 'kop_operator-token-123', IBAN, SPACED_IBAN, '0519786457841326'])
      expect(out).not.toContain(secret);
    expect(out).toContain('TR**…1326');
  });

  it('removes them from metadata at any depth, by field name and by content', () => {
    const { logger, text } = capture();
    logger.warn('request failed', {
      headers: { authorization: `Bearer ${API_KEY}`, cookie: 'kasa_session=abc' },
      body: { targetIban: IBAN, nested: [{ note: `paid to ${SPACED_IBAN}` }], webhookSecret: WEBHOOK_SECRET },
      password: 'correct horse battery staple',
      token: 'kop_abc',
      error: new Error(`upstream said ${API_KEY}`),
    });
    const out = text();
    for (const secret of [API_KEY, WEBHOOK_SECRET, IBAN, SPACED_IBAN, 'correct horse battery staple', 'kop_abc', 'kasa_session=abc']) {
      expect(out).not.toContain(secret);
    }
    expect(JSON.parse(out).body.targetIban).toBe(maskIban(IBAN));
  });

  it('keeps ordinary text, ids and amounts readable', () => {
    expect(redactString('intent 6f1c2e0a-0b7e-4f57-9d7c-3f1f0b1d2a10 approved for 150000 kurus, ref KD7MX4Q2RH')).toBe(
      'intent 6f1c2e0a-0b7e-4f57-9d7c-3f1f0b1d2a10 approved for 150000 kurus, ref KD7MX4Q2RH',
    );
  });

  it('survives cyclic and very deep metadata without hanging', () => {
    const { logger, text } = capture();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { iban: IBAN };
    for (let i = 0; i < 50; i += 1) deep = { next: deep };
    logger.info('odd shapes', { cyclic, deep });
    expect(text()).not.toContain(IBAN);
  });
});
