import { describe, expect, it } from '@jest/globals';
import { arrivalEventTypes } from './arrival-events.js';
import { optInChoiceOf, receives, subscribedEventTypes } from '../outbox/event-subscriptions.js';

describe('arrivalEventTypes', () => {
  const reserved = { status: 'RESERVED', receivedAmount: null } as const;

  it('announces money that puts a deposit up for review as intent.received', () => {
    expect(arrivalEventTypes(reserved, { status: 'PENDING_REVIEW', receivedAmount: 10000n })).toEqual(['intent.received']);
  });

  it('announces each further transfer of a deposit still under review', () => {
    expect(
      arrivalEventTypes({ status: 'PENDING_REVIEW', receivedAmount: 6000n }, { status: 'PENDING_REVIEW', receivedAmount: 10000n }),
    ).toEqual(['intent.received']);
  });

  it('announces money reaching an expired deposit as intent.late_arrival, first and later transfers alike', () => {
    expect(
      arrivalEventTypes({ status: 'AUTO_CANCELLED', receivedAmount: null }, { status: 'LATE_ARRIVAL', receivedAmount: 5000n }),
    ).toEqual(['intent.late_arrival']);
    expect(arrivalEventTypes({ status: 'LATE_ARRIVAL', receivedAmount: 5000n }, { status: 'LATE_ARRIVAL', receivedAmount: 9000n })).toEqual(
      ['intent.late_arrival'],
    );
  });

  it('announces nothing when no money was added or the deposit was approved straight through', () => {
    expect(
      arrivalEventTypes({ status: 'PENDING_REVIEW', receivedAmount: 6000n }, { status: 'PENDING_REVIEW', receivedAmount: 6000n }),
    ).toEqual([]);
    expect(arrivalEventTypes(reserved, { status: 'APPROVED', receivedAmount: 10000n })).toEqual([]);
  });
});

describe('event subscriptions', () => {
  it('sends the five SPEC types to a site that never chose, and no opt-in type', () => {
    expect(subscribedEventTypes([])).toEqual([
      'intent.approved',
      'intent.rejected',
      'withdrawal.sent',
      'withdrawal.rejected',
      'withdrawal.returned',
    ]);
    expect(receives([], 'intent.approved')).toBe(true);
    expect(receives([], 'intent.topped_up')).toBe(false);
    expect(receives(['intent.topped_up'], 'intent.topped_up')).toBe(true);
  });

  it('stores only the opt-in types of a choice', () => {
    expect(
      optInChoiceOf([
        'intent.approved',
        'intent.rejected',
        'withdrawal.sent',
        'withdrawal.rejected',
        'withdrawal.returned',
        'intent.auto_cancelled',
      ]),
    ).toEqual(['intent.auto_cancelled']);
  });

  it('refuses a choice that leaves out a type always sent', () => {
    expect(() => optInChoiceOf(['intent.approved', 'intent.rejected', 'withdrawal.sent', 'withdrawal.rejected'])).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
  });
});
