import t from 'tap';
import {
  INITIAL_TOKEN_STATE,
  transition,
  type TokenEffect,
  type TokenEvent,
  type TokenState,
} from '../../runtime/auth/token-machine.js';

t.test('(start) --provider created--> NoToken', async (t) => {
  t.equal(INITIAL_TOKEN_STATE, 'NoToken');
});

/** Every row of spec §3.2 after the start row: state, trigger, next state, effect. */
const ROWS: readonly [string, TokenState, TokenEvent, TokenState, TokenEffect][] = [
  [
    'NoToken --token requested--> Fetching (request sent)',
    'NoToken',
    'token_requested',
    'Fetching',
    'send_token_request',
  ],
  [
    'Fetching --token acquired--> Valid (token cached)',
    'Fetching',
    'token_acquired',
    'Valid',
    'cache_token',
  ],
  ['Fetching --fetch failed--> Error', 'Fetching', 'fetch_failed', 'Error', 'none'],
  [
    'Valid --token used--> Valid (cached token returned)',
    'Valid',
    'token_used',
    'Valid',
    'return_cached',
  ],
  [
    'Valid --refresh-before-expiry point reached--> NearExpiry',
    'Valid',
    'refresh_point_reached',
    'NearExpiry',
    'none',
  ],
  ['Valid --TTL elapsed--> Expired', 'Valid', 'ttl_elapsed', 'Expired', 'none'],
  [
    'NearExpiry --background refresh starts--> Refreshing',
    'NearExpiry',
    'refresh_started',
    'Refreshing',
    'send_token_request',
  ],
  [
    'Refreshing --new token obtained--> Valid (new token replaces old)',
    'Refreshing',
    'new_token_obtained',
    'Valid',
    'replace_token',
  ],
  [
    'Refreshing --old token used--> Valid (old token kept)',
    'Refreshing',
    'old_token_used',
    'Valid',
    'keep_old_token',
  ],
  [
    'Expired --token requested--> Fetching',
    'Expired',
    'token_requested',
    'Fetching',
    'send_token_request',
  ],
  ['Error --retry--> Fetching', 'Error', 'retry', 'Fetching', 'send_token_request'],
  ['Error --maximum retries reached--> (end)', 'Error', 'max_retries_reached', 'End', 'stop_run'],
];

for (const [name, state, event, next, effect] of ROWS) {
  t.test(name, async (t) => {
    t.strictSame(transition(state, event), { next, effect });
  });
}

const STATES: readonly TokenState[] = [
  'NoToken',
  'Fetching',
  'Valid',
  'NearExpiry',
  'Expired',
  'Refreshing',
  'Error',
  'End',
];
const EVENTS: readonly TokenEvent[] = [
  'token_requested',
  'token_acquired',
  'fetch_failed',
  'token_used',
  'refresh_point_reached',
  'ttl_elapsed',
  'refresh_started',
  'new_token_obtained',
  'old_token_used',
  'retry',
  'max_retries_reached',
];

t.test('no transition outside the table', async (t) => {
  const listed = new Set(ROWS.map(([, state, event]) => `${state} ${event}`));
  let absent = 0;
  for (const state of STATES) {
    for (const event of EVENTS) {
      if (listed.has(`${state} ${event}`)) continue;
      t.equal(transition(state, event), undefined, `${state} ${event}`);
      absent++;
    }
  }
  t.equal(absent, STATES.length * EVENTS.length - ROWS.length);
});

t.test('End is final', async (t) => {
  t.ok(EVENTS.every((event) => transition('End', event) === undefined));
});
