/** A Loaded run from a configuration object, through the real loader (a JSON file in `dir`). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPlan, type Loaded } from '../../dsl/load-plan.js';
import { toFlagLayer } from '../../cli/flags.js';

/** Writes `config` as dir/barrage.json and loads it; throws with the issues when invalid. */
export async function loadFixture(
  dir: string,
  config: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<Loaded> {
  writeFileSync(join(dir, 'barrage.json'), JSON.stringify(config));
  const loaded = await loadPlan({
    cwd: dir,
    env,
    execPath: process.execPath,
    configFile: 'barrage.json',
    flags: toFlagLayer({}).layer,
    flagIssues: [],
    userAgent: 'barrage/test',
    fallbackSeed: 1,
    typecheck: false,
  });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.error.issues));
  return loaded.value;
}
