/**
 * An express app with multer, as a user's upload service: it keeps what each request brought —
 * every multipart file's field, name, size and sha256, every field's values (a repeated field as
 * a list, as multer gives it), and a raw body's size and sha256 — and answers 201.
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import multer from 'multer';
import type { Test } from 'tap';

/** A file as the server received it. */
export interface ReceivedFile {
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
  readonly sha256: string;
}

/** A request as the server received it. */
export interface Upload {
  readonly path: string;
  readonly files: readonly ReceivedFile[];
  readonly fields: Readonly<Record<string, unknown>>;
  /** A raw body's size and sha256 (POST /raw). */
  readonly raw?: { readonly size: number; readonly sha256: string; readonly type: string };
}

export interface UploadApp {
  readonly url: string;
  readonly uploads: Upload[];
}

/** The sha256 of some bytes, in hex. */
export const sha256 = (bytes: Uint8Array): string =>
  createHash('sha256').update(bytes).digest('hex');

/** Starts the app on an ephemeral port of 127.0.0.1; closed at the test's end. */
export async function uploadApp(t: Test): Promise<UploadApp> {
  const uploads: Upload[] = [];
  const app = express();
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 1024 * 1024 } });
  app.post('/upload', upload.any(), (req, res) => {
    const files = (req.files as Express.Multer.File[]).map((f) => ({
      field: f.fieldname,
      filename: f.originalname,
      contentType: f.mimetype,
      size: f.size,
      sha256: sha256(f.buffer),
    }));
    uploads.push({ path: req.path, files, fields: { ...(req.body as object) } });
    res.status(201).json({ files: files.length });
  });
  app.post('/raw', express.raw({ type: () => true, limit: '1mb' }), (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const type = req.headers['content-type'] ?? '';
    uploads.push({
      path: req.path,
      files: [],
      fields: {},
      raw: { size: body.length, sha256: sha256(body), type },
    });
    res.status(201).json({ size: body.length });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  server.keepAliveTimeout = 100;
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, uploads };
}

/** `size` bytes in which every value 0–255 occurs, as a PNG's bytes do (not valid UTF-8). */
export function binaryFixture(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 131 + (i >> 8)) & 0xff;
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}
