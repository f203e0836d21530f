// Ports on 127.0.0.1 for the real servers tests start (nginx, tinyproxy, Prometheus…): free ones
// to give them, and whether one accepts connections yet.
import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** `count` distinct free ports: all held at once, then released. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    }),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** One free port. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/** True when something accepts a TCP connection on the port now. */
export function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
