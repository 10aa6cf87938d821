/**
 * The model test's vocabulary: each step is plain data (so fast-check prints and shrinks it), naming records by
 * small numbers that are read modulo the run's records of that kind when the step runs (a step with nothing to act
 * on does nothing). perform.ts carries each out over HTTP.
 */
import fc from 'fast-check';

export type Mode = 'live' | 'sandbox';
/** Who acts on the ops API: two reviewers, an admin, and the bootstrap token (configuration, not a person). */
export type Actor = 'rev1' | 'rev2' | 'admin' | 'bootstrap';
/** How a bank line reaches the ledger now: typed in by hand (with or without its account), posted by the connector, or not yet (a later statement). */
export type Channel = 'hand' | 'handNoAccount' | 'connector' | 'later';

export type Step =
  /** A partner creates a deposit (live through the internal API, sandbox on the test twin). */
  | { do: 'deposit'; mode: Mode; amount: number }
  /** The bank receives money for a live deposit: exactly, less or more than asked. */
  | { do: 'pay'; deposit: number; share: 'exact' | 'less' | 'more'; via: Channel }
  /** The bank receives money naming nothing; `twin`: and a second credit the bank gives the same reference. */
  | { do: 'stranger'; account: number; via: Channel; twin: boolean }
  /** A line the bank already has is brought again by another channel (an operator types in what a statement had...). */
  | { do: 'redeliver'; line: number; via: Exclude<Channel, 'later'> }
  /** A statement of one account: every line so far, the last few, or the previous file again. */
  | { do: 'statement'; account: number; window: 'all' | 'tail' | 'again'; size: number }
  /** The sandbox's simulator sends money for a test deposit (or, without a reference, to nobody). */
  | { do: 'simulateTransfer'; deposit: number; share: 'exact' | 'less' | 'more'; noReference: boolean }
  /** A deposit approved: for what arrived, or for less with the rest returned or set aside (sandbox: the simulator). */
  | { do: 'approveDeposit'; deposit: number; actor: Actor; part: 'all' | 'return' | 'setAside' }
  | { do: 'bulkApprove'; deposits: number[]; actor: Actor }
  /** An operator deals with money that found no deposit. */
  | { do: 'unmatched'; transfer: number; action: 'setAside' | 'return' }
  /** A partner creates a withdrawal. */
  | { do: 'withdrawal'; mode: Mode; amount: number }
  /**
   * The next things that happen to a payout (a withdrawal or a return to a sender), one per move, each by its state
   * then: approved by `actor`; batched (by name, from account `variant`) or, in the sandbox and honest, sent by the
   * simulator; its bank line (honest: its own debit, else a decoy: `variant` 0 to someone else naming it, 1 on another
   * account); once sent, its return (honest: from its creditor, else a stranger's credit naming it).
   */
  | { do: 'payoutNext'; payout: number; actor: Actor; moves: boolean[]; variant: number; via: 'connector' | 'later' }
  /** A payout batch of every approved payout not yet batched, paid from one account. */
  | { do: 'batchAll'; account: number }
  /** Several steps at the same moment. */
  | { do: 'together'; steps: Step[] };

const pick = fc.nat({ max: 40 });
const actor = fc.constantFrom<Actor>('rev1', 'rev2', 'admin', 'bootstrap');
const mode = fc.constantFrom<Mode>('live', 'live', 'sandbox');
const share = fc.constantFrom('exact', 'exact', 'less', 'more') as fc.Arbitrary<'exact' | 'less' | 'more'>;
const channel = fc.constantFrom<Channel>('hand', 'handNoAccount', 'connector', 'later');
/** Kuruş: 500,00 to 4.000,00 TL for deposits, 200,00 to 3.000,00 TL for withdrawals (four-eyes above 1.000,00). */
const depositAmount = fc.integer({ min: 500, max: 4000 }).map((lira) => lira * 100);
const withdrawalAmount = fc.integer({ min: 200, max: 3000 }).map((lira) => lira * 100);

/** One step that is not `together`, weighted so that every path to money (and each known bug class) is common. */
const single: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ do: fc.constant('deposit' as const), mode, amount: depositAmount }) },
  { weight: 5, arbitrary: fc.record({ do: fc.constant('pay' as const), deposit: pick, share, via: channel }) },
  {
    weight: 2,
    arbitrary: fc.record({ do: fc.constant('stranger' as const), account: pick, via: channel, twin: fc.boolean() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      do: fc.constant('redeliver' as const),
      line: pick,
      via: fc.constantFrom('hand', 'handNoAccount', 'connector') as fc.Arbitrary<'hand' | 'handNoAccount' | 'connector'>,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      do: fc.constant('statement' as const),
      account: pick,
      window: fc.constantFrom('all', 'tail', 'again') as fc.Arbitrary<'all' | 'tail' | 'again'>,
      size: fc.integer({ min: 1, max: 5 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ do: fc.constant('simulateTransfer' as const), deposit: pick, share, noReference: fc.boolean() }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      do: fc.constant('approveDeposit' as const),
      deposit: pick,
      actor,
      part: fc.constantFrom('all', 'all', 'return', 'setAside') as fc.Arbitrary<'all' | 'return' | 'setAside'>,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      do: fc.constant('bulkApprove' as const),
      deposits: fc.uniqueArray(pick, { minLength: 1, maxLength: 4 }),
      actor,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      do: fc.constant('unmatched' as const),
      transfer: pick,
      action: fc.constantFrom('setAside', 'return') as fc.Arbitrary<'setAside' | 'return'>,
    }),
  },
  { weight: 3, arbitrary: fc.record({ do: fc.constant('withdrawal' as const), mode, amount: withdrawalAmount }) },
  {
    weight: 10,
    arbitrary: fc.record({
      do: fc.constant('payoutNext' as const),
      payout: pick,
      actor,
      moves: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
      variant: fc.nat({ max: 1 }),
      via: fc.constantFrom('connector', 'connector', 'later') as fc.Arbitrary<'connector' | 'later'>,
    }),
  },
  { weight: 1, arbitrary: fc.record({ do: fc.constant('batchAll' as const), account: pick }) },
);

/**
 * A run's steps: mostly one at a time, some 2 to 4 at the same moment. Lengths are drawn over the whole range
 * (`size: 'max'`), and a failing run shrinks down to a single step.
 */
export function stepsArbitrary(maxSteps: number): fc.Arbitrary<Step[]> {
  const step = fc.oneof(
    { weight: 9, arbitrary: single },
    {
      weight: 1,
      arbitrary: fc.record({ do: fc.constant('together' as const), steps: fc.array(single, { minLength: 2, maxLength: 4 }) }),
    },
  );
  return fc.array(step, { minLength: 1, maxLength: maxSteps, size: 'max' });
}

/** How many calls a list of steps makes at most (a `together` counts each of its steps). */
export const countSteps = (steps: readonly Step[]): number =>
  steps.reduce((sum, step) => sum + (step.do === 'together' ? step.steps.length : 1), 0);
