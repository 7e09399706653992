/** How the sandbox makes and keeps secrets: 256 random bits, stored only as SHA-256 hashes. */
import { createHash, randomBytes } from 'node:crypto';

/** The SHA-256 of a value, hex. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** 256 random bits, base64url: a token or session value. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** 64 random bits, hex: a record's public id. */
export function newId(): string {
  return randomBytes(8).toString('hex');
}
