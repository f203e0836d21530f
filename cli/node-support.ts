/**
 * The Node versions barrage runs on, checked by cli/bin.ts before anything else is imported: an
 * older Node would otherwise fail later with a native-module or syntax error. This file imports
 * nothing, so the check runs on any Node. package.json `engines` says the same (a test holds them
 * together).
 */

/** The oldest supported Node: undici 8 needs 22.19; isolated-vm ships binaries for 22, 24, 26. */
export const OLDEST_NODE = { major: 22, minor: 19 } as const;

/** The one line that refuses `version` (process.version, e.g. "v20.20.2"); undefined when supported. */
export function refuseNode(version: string): string | undefined {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const { major: oldestMajor, minor: oldestMinor } = OLDEST_NODE;
  if (major > oldestMajor || (major === oldestMajor && minor >= oldestMinor)) return undefined;
  return (
    `barrage: this is Node.js ${version}; barrage needs Node.js ${oldestMajor}.${oldestMinor} or newer ` +
    `(22, 24 or 26). Install one from https://nodejs.org (or \`nvm install 24\`) and run barrage with it.`
  );
}
