// The scripted row of `npm run bench`: one GET per iteration, the twin of `--target <url>/json`.
import { http } from 'barrage';

export default async function (): Promise<void> {
  await http.get('/json');
}
