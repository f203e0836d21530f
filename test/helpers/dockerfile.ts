/**
 * barrage's image definition (the Dockerfile at the repository's root) read as Docker reads it,
 * by dockerfile-ast: its stages, each stage's instructions, and the shell text of their RUN steps.
 * test/package/dockerfile.test.ts checks them; test/install/global-install.test.ts replays the
 * install step without Docker.
 */
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One stage: its FROM's image and name, and the instructions after it. */
export interface Stage {
  readonly image: string;
  readonly name: string | undefined;
  readonly instructions: readonly Instruction[];
}

/** The Dockerfile's stages, in order. */
export function readStages(): Stage[] {
  const dockerfile = DockerfileParser.parse(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  const stages: { image: string; name: string | undefined; instructions: Instruction[] }[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const [image = '', , name] = instruction.getArguments().map((a) => a.getValue());
      stages.push({ image, name, instructions: [] });
    } else stages.at(-1)?.instructions.push(instruction);
  }
  return stages;
}

/** The arguments of a stage's instructions with `keyword`, each as one text (continuations joined). */
export function argumentsOf(stage: Stage, keyword: string): string[] {
  return stage.instructions
    .filter((i) => i.getKeyword() === keyword)
    .map((i) => i.getArgumentsContent() ?? '');
}

/** The last stage, the image itself. */
export function finalStage(): Stage {
  return readStages().at(-1)!;
}

/** The final stage's RUN that installs the packed tarball (`npm install --global`). */
export function installStep(): string {
  const step = argumentsOf(finalStage(), 'RUN').find((run) => run.includes('npm install --global'));
  if (step === undefined) throw new Error('the Dockerfile has no npm install --global step');
  return step;
}

/** The default of the final stage's ARG `name` (the folder the packed tarball is copied to). */
export function argDefault(name: string): string | undefined {
  const arg = argumentsOf(finalStage(), 'ARG').find((a) => a.startsWith(`${name}=`));
  return arg?.slice(name.length + 1);
}
