import { createHmac } from 'node:crypto';

/**
 * Raw HMAC over pre-validated inputs: `HMAC-SHA256(key = UTF-8(secret), message = eventId + "." + t + "." + body)`.
 * Shared by both header schemes (hex in `Service-Signature`, base64 in `webhook-signature`) and by signing and
 * verification, so every side builds the message identically. The body is fed as bytes rather than concatenated
 * into a string, so binary or non-UTF-8 bodies are signed exactly as sent.
 */
export function computeSignature(secret: string, eventId: string, timestamp: number, body: Uint8Array): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${eventId}.${timestamp}.`, 'utf8').update(body).digest();
}
