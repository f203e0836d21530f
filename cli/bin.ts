#!/usr/bin/env node
/**
 * The only file that touches `process` (STYLE.md rule 7): it refuses an unsupported Node, builds
 * the command context from argv, the environment and stdio, relays SIGINT/SIGTERM/SIGHUP to
 * whoever subscribed, and sets the exit code. Node starts with its start-up snapshot (no flags): isolated-vm
 * runs only in child processes started with --no-node-snapshot (docs/scenarios.md).
 */
import nodeModule from 'node:module';
import type { BarrageContext, UserSignal } from './context.js';
import { refuseNode } from './node-support.js';

// Before main is imported: on an old Node its imports would fail with a stack trace instead.
const refusal = refuseNode(process.version);
if (refusal !== undefined) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
// V8's compiled code of barrage and its dependencies, kept on disk (node's own cache directory
// under the system temp dir) and reused by the next start: a third of the start-up time here.
nodeModule.enableCompileCache();
const { main } = await import('./main.js');

const handlers = new Set<(signal: UserSignal) => void>();

/** 128 + the signal's number: the code a shell reports for a process the signal ended. */
const SIGNAL_EXIT: Readonly<Record<UserSignal, number>> = {
  SIGHUP: 129,
  SIGINT: 130,
  SIGTERM: 143,
};

function relay(signal: UserSignal): void {
  // With nobody listening, a signal ends the process as node would, with 128 + signal number.
  if (handlers.size === 0) process.exit(SIGNAL_EXIT[signal]);
  for (const handler of [...handlers]) handler(signal);
}
process.on('SIGINT', relay);
process.on('SIGTERM', relay);
process.on('SIGHUP', relay);
// A terminal that hung up (EIO) or a closed pipe (EPIPE) makes writes fail: what was meant for
// the screen is lost, but the run must go on to write its report files and exit with its code.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

const exitHandlers = new Set<() => void>();
process.on('exit', () => {
  for (const handler of [...exitHandlers]) handler();
});

const context: BarrageContext = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  colorDepth: process.stdout.isTTY ? process.stdout.getColorDepth() : 1,
  cwd: process.cwd(),
  isTTY: process.stdout.isTTY === true,
  execPath: process.execPath,
  onSignal: (handler) => {
    handlers.add(handler);
    return () => handlers.delete(handler);
  },
  exitNow: (code) => process.exit(code),
  // A pseudo-terminal that was never sized reports 0 × 0: fall back to 80 × 24 then too.
  terminalSize: () => ({
    columns: process.stdout.columns || 80,
    rows: process.stdout.rows || 24,
  }),
  setRawMode: process.stdin.isTTY ? (on) => process.stdin.setRawMode(on) : undefined,
  onResize: (handler) => {
    process.stdout.on('resize', handler);
    return () => process.stdout.off('resize', handler);
  },
  onExit: (handler) => {
    exitHandlers.add(handler);
    return () => exitHandlers.delete(handler);
  },
};

const code = await main(process.argv.slice(2), context);
// Writes to pipes and files are synchronous on Linux, so nothing printed is lost by exiting now;
// exiting also ends any keep-alive socket a target left open.
process.exit(code);
