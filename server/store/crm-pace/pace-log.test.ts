import { describe, expect, it } from 'vitest';
import { CRM_PACE_WINDOW_MS, giveBackSlots, parsePaceLog, takeSlots } from './pace-log.ts';

describe('takeSlots', () => {
  it.each([
    { name: 'an empty window grants what is wanted', log: [], now: 0, wanted: 10, granted: 10 },
    { name: 'never more than the limit', log: [], now: 0, wanted: 200, granted: 90 },
    { name: 'what the window has left', log: [[0, 80]], now: 5_000, wanted: 20, granted: 10 },
    {
      name: 'nothing from a full window',
      log: [
        [0, 50],
        [9_000, 40],
      ],
      now: 9_999,
      wanted: 5,
      granted: 0,
    },
    {
      name: 'a grant leaves the window 10 s after it was made',
      log: [
        [0, 50],
        [9_000, 40],
      ],
      now: 10_000,
      wanted: 100,
      granted: 50,
    },
    { name: 'a grant from a clock ahead of ours still counts', log: [[20_000, 90]], now: 10_000, wanted: 1, granted: 0 },
  ] as const)('$name', ({ log, now, wanted, granted }) => {
    expect(takeSlots(log, now, wanted, 90).granted).toBe(granted);
  });

  it('keeps only grants still in the window, plus the new one', () => {
    expect(
      takeSlots(
        [
          [0, 5],
          [1_000, 5],
        ],
        CRM_PACE_WINDOW_MS,
        3,
        90,
      ).log,
    ).toEqual([
      [1_000, 5],
      [CRM_PACE_WINDOW_MS, 3],
    ]);
  });
});

describe('giveBackSlots', () => {
  it('takes unused slots off the oldest grants still in the window', () => {
    expect(
      giveBackSlots(
        [
          [0, 10],
          [5_000, 4],
          [8_000, 6],
        ],
        12_000,
        6,
      ),
    ).toEqual([[8_000, 4]]);
    expect(giveBackSlots([[5_000, 4]], 6_000, 100)).toEqual([]);
  });
});

describe('parsePaceLog', () => {
  it('reads a stored window and treats anything unreadable as empty', () => {
    expect(parsePaceLog('[[1,2],[3,4]]')).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(parsePaceLog('not json')).toEqual([]);
    expect(parsePaceLog('{"a":1}')).toEqual([]);
    expect(parsePaceLog('[[1,0],["x",2],[5,1]]')).toEqual([[5, 1]]);
    expect(parsePaceLog(null)).toEqual([]);
  });
});
