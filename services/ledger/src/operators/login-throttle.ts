import { isIP } from 'node:net';
import type { RedisClient } from '@kasa/redis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '@kasa/http';
import { sha256Hex } from '../shared/secrets.js';

export interface LoginThrottleConfig {
  opsLoginWindowSeconds: number;
  opsLoginAttemptsPerAccountAddress: number;
  opsLoginAttemptsPerAddress: number;
  opsLoginAttemptsPerAccount: number;
}

/** What one admitted attempt took from the allowances, so that a success can give it back. */
export interface LoginAttempt {
  account: string;
  address: string;
  pair: string;
  /** This attempt's place in its (account, address) window: a success gives back it and everything before it. */
  pairPosition: number;
  chargedAccount: boolean;
}

/** What one second-factor code check took from the operator's allowance. */
export interface CodeAttempt {
  key: string;
  position: number;
}

const KNOWN_ADDRESS_TTL_SECONDS = 30 * 86400;

// Gives back points without ever creating a key or going below zero (the library's reward() does both
// when the window ran out in between). DECRBY keeps the key's TTL, so the window does not move.
const REFUND_SCRIPT = `if redis.call('exists', KEYS[1]) == 0 then return 0 end
local left = redis.call('decrby', KEYS[1], ARGV[1])
if left <= 0 then redis.call('del', KEYS[1]) end
return left`;

/**
 * The bucket a client address is counted in: IPv4 as is (IPv4-mapped IPv6 unwrapped), IPv6 by its /64,
 * since one subscriber usually holds a whole /64 and could otherwise change address at every attempt.
 */
export function addressBucket(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIP(mapped[1] as string) === 4) return mapped[1] as string;
  if (isIP(address) !== 6) return address;
  const plain = (address.split('%')[0] as string).toLowerCase();
  // Other IPv4-embedding forms are rare enough to be counted per address.
  if (plain.includes('.')) return plain;
  const [head = '', tail] = plain.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - headGroups.length - tailGroups.length }, () => '0');
  const groups = [...headGroups, ...zeros, ...tailGroups].slice(0, 4).map((g) => g.replace(/^0+(?=.)/, ''));
  return `${groups.join(':')}::/64`;
}

/**
 * Operator login throttling in Redis, shared by every ledger replica. Each attempt takes a point from its
 * allowances atomically before the password is checked, so a burst beyond them is refused without hashing:
 * (1) one e-mail from one address, (2) one address for any e-mail, (3) one e-mail from any address it has
 * never logged in from. A successful login remembers its (e-mail, address) pair for 30 days, so spraying an
 * account from elsewhere cannot lock its operator out of their usual address. Keys hold only hashes.
 */
export class LoginThrottle {
  private readonly perPair: RateLimiterRedis;
  private readonly perAddress: RateLimiterRedis;
  private readonly perAccount: RateLimiterRedis;
  private readonly perOperatorCode: RateLimiterRedis;
  private readonly knownPrefix: string;

  constructor(
    private readonly redis: RedisClient,
    redisPrefix: string,
    config: LoginThrottleConfig,
  ) {
    const limiter = (name: string, points: number) =>
      // No insurance limiter: when Redis is down, login answers 503 rather than running unthrottled.
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${redisPrefix}:ops-login-${name}`,
        points,
        duration: config.opsLoginWindowSeconds,
        rejectIfRedisNotReady: true,
      });
    this.perPair = limiter('pair', config.opsLoginAttemptsPerAccountAddress);
    this.perAddress = limiter('address', config.opsLoginAttemptsPerAddress);
    this.perAccount = limiter('account', config.opsLoginAttemptsPerAccount);
    // Second-factor codes, per operator whatever the address: a stolen password (or token) gets as many code guesses
    // per window as one address gets password guesses.
    this.perOperatorCode = limiter('code', config.opsLoginAttemptsPerAccountAddress);
    this.knownPrefix = `${redisPrefix}:ops-login-known`;
  }

  /**
   * Takes one attempt from every allowance that applies, stopping at the first that is used up.
   * Throws `rate_limited` (429 with Retry-After) when one is, and `service_unavailable` when Redis is down.
   */
  async admit(email: string, clientAddress: string): Promise<LoginAttempt> {
    const account = sha256Hex(`ops-login:${email}`);
    const address = sha256Hex(`ops-login:${addressBucket(clientAddress)}`);
    const pair = sha256Hex(`${account}:${address}`);
    return this.guarded(async () => {
      if (this.redis.status !== 'ready') throw new Error('Redis connection is not ready');
      const known = (await this.redis.exists(`${this.knownPrefix}:${pair}`)) === 1;
      const pairPosition = (await this.perPair.consume(pair)).consumedPoints;
      await this.perAddress.consume(address);
      if (!known) await this.perAccount.consume(account);
      return { account, address, pair, pairPosition, chargedAccount: !known };
    });
  }

  /**
   * After a correct password: the attempt and the pair's earlier failures are given back, so an operator's
   * typos do not add up, and the address is remembered for the account. Best effort: the password was
   * right, so a Redis failure here must not refuse the login.
   */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    await Promise.allSettled([
      this.refund(this.perPair, attempt.pair, attempt.pairPosition),
      this.refund(this.perAddress, attempt.address, 1),
      attempt.chargedAccount ? this.refund(this.perAccount, attempt.account, 1) : Promise.resolve(),
      this.redis.set(`${this.knownPrefix}:${attempt.pair}`, '1', 'EX', KNOWN_ADDRESS_TTL_SECONDS),
    ]);
  }

  /**
   * Takes one attempt from the operator's second-factor allowance before a code is checked (login, confirm,
   * step-up, turning it off). Throws like {@link admit}.
   */
  async admitCode(operatorId: string): Promise<CodeAttempt> {
    const key = sha256Hex(`ops-2fa:${operatorId}`);
    return this.guarded(async () => {
      if (this.redis.status !== 'ready') throw new Error('Redis connection is not ready');
      return { key, position: (await this.perOperatorCode.consume(key)).consumedPoints };
    });
  }

  /** After a right code: gives back it and the wrong ones before it, as a right password does. Best effort. */
  async codeSucceeded(attempt: CodeAttempt): Promise<void> {
    await Promise.allSettled([this.refund(this.perOperatorCode, attempt.key, attempt.position)]);
  }

  private async refund(limiter: RateLimiterRedis, key: string, points: number): Promise<void> {
    await this.redis.eval(REFUND_SCRIPT, 1, limiter.getKey(key), String(points));
  }

  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        // One message for every allowance and for unknown e-mails alike: it must not tell whether an account exists.
        throw new AppError('rate_limited', `Too many login attempts; try again in ${seconds} s.`, undefined, {
          'Retry-After': String(seconds),
        });
      }
      throw new AppError('service_unavailable', 'Login is temporarily unavailable; try again shortly.', undefined, { 'Retry-After': '1' });
    }
  }
}
