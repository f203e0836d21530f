// The `feeder` phase: peak RSS of `barrage validate` loading a generated CSV feeder, as a ratio to
// the file's size (goal: under 3 ×), next to the same command without a feeder. The CSV (4
// columns, about 70 bytes a row) is written to the system's temporary folder and removed after.
import { spawn } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './processes.mjs';

/** Writes a CSV of about `bytes` bytes. */
function writeCsv(path, bytes) {
  const fd = openSync(path, 'w');
  writeSync(fd, 'id,email,name,token\n');
  let size = 0;
  let chunk = '';
  for (let i = 0; size < bytes; i++) {
    const line = `${i},user${i}@example.com,User Name ${i},${(Math.imul(i, 2654435761) >>> 0).toString(16).padStart(8, '0')}abcdef0123456789\n`;
    chunk += line;
    size += line.length;
    if (chunk.length > 1 << 20) {
      writeSync(fd, chunk);
      chunk = '';
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
}

/** Peak RSS (VmHWM, MB) of `barrage validate config`, read from /proc until the process ends. */
async function peakRss(config) {
  const child = spawn(process.execPath, [BIN, 'validate', config], { stdio: 'ignore' });
  let peak = 0;
  const read = () => {
    try {
      const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      if (kb !== undefined) peak = Math.max(peak, Number(kb) / 1024);
    } catch {
      // the process is ending
    }
  };
  const timer = setInterval(read, 50);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(timer);
  return { peak, code };
}

/** Prints the feeder's peak RSS against its file size. */
export async function feederPhase({ megabytes }) {
  const dir = mkdtempSync(join(tmpdir(), 'barrage-bench-feeder-'));
  try {
    writeCsv(join(dir, 'users.csv'), megabytes * 1e6);
    const size = statSync(join(dir, 'users.csv')).size / 1e6;
    const base = 'target: http://127.0.0.1:9\nendpoints: [{ url: "/?u={{email}}" }]\n';
    writeFileSync(join(dir, 'plain.yaml'), base);
    writeFileSync(join(dir, 'feeder.yaml'), `${base}feeder: { file: users.csv }\n`);
    console.log(`\n## Feeder memory: barrage validate with a ${size.toFixed(0)} MB CSV (peak RSS)`);
    const plain = await peakRss(join(dir, 'plain.yaml'));
    const fed = await peakRss(join(dir, 'feeder.yaml'));
    const ratio = fed.peak / size;
    console.log(
      `without feeder ${plain.peak.toFixed(0)} MB; with it ${fed.peak.toFixed(0)} MB (exit ${fed.code}): ` +
        `${ratio.toFixed(2)} × the file, ${((fed.peak - plain.peak) / size).toFixed(2)} × above the CLI's own; ` +
        `goal < 3 × → ${ratio < 3 ? 'met' : 'NOT met'}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
