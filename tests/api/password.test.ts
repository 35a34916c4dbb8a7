// Password hashing: scrypt with its parameters in the hash, timing-safe verification, rehash check.
import { describe, expect, it } from 'vitest';
import { oldHash } from './harness';
import { CURRENT_PARAMS, hashPassword, needsRehash, verifyPassword } from '../../server/auth/password';

describe('passwords', () => {
  it('hashes with a random salt and verifies', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).not.toBe(b);
    expect(a).toMatch(new RegExp(`^\\$scrypt\\$ln=${CURRENT_PARAMS.ln},r=${CURRENT_PARAMS.r},p=${CURRENT_PARAMS.p}\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`));
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('treats the same text in another Unicode form as the same password', async () => {
    const hash = await hashPassword('caf\u00e9 au lait');
    expect(await verifyPassword('cafe\u0301 au lait', hash)).toBe(true);
  });

  it('refuses malformed or tampered hashes instead of throwing', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', '$scrypt$ln=30,r=8,p=1$AAAA$BBBB')).toBe(false);
  });

  it('verifies hashes made with older, weaker parameters and asks for a rehash', async () => {
    const weaker = oldHash('pw for old hash', CURRENT_PARAMS.ln - 2);
    expect(await verifyPassword('pw for old hash', weaker)).toBe(true);
    expect(await verifyPassword('another pw', weaker)).toBe(false);
    expect(needsRehash(weaker)).toBe(true);
    expect(needsRehash(await hashPassword('pw'))).toBe(false);
    // the cost is part of what is checked: the same key under another cost does not verify
    expect(await verifyPassword('pw for old hash', weaker.replace(`ln=${CURRENT_PARAMS.ln - 2}`, `ln=${CURRENT_PARAMS.ln}`))).toBe(false);
  });

  it('takes a memory-hard amount of work (tens of milliseconds)', async () => {
    const started = performance.now();
    await hashPassword('timing');
    expect(performance.now() - started).toBeGreaterThan(15);
  });
});
