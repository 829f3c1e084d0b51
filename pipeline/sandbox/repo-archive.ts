import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pack, type Pack } from 'tar-stream';

/**
 * Tar streams of what goes into a sandbox: a folder copied as it is (symlinks stay links and
 * are never followed, so nothing outside the folder is read), plus generated files. The
 * container gets a copy, so the clone cache is never touched by what runs inside.
 */
export interface ArchiveFile {
  path: string;
  content: string | Buffer;
  mode?: number;
}

export function archive(dirs: { hostDir: string; containerPath: string }[], files: ArchiveFile[] = []): Pack {
  const tar = pack();
  void (async () => {
    try {
      for (const d of dirs) await addDir(tar, d.hostDir, strip(d.containerPath));
      for (const f of files) await entry(tar, { name: strip(f.path), mode: f.mode ?? 0o644 }, typeof f.content === 'string' ? Buffer.from(f.content) : f.content);
      tar.finalize();
    } catch (err) {
      tar.destroy(err as Error);
    }
  })();
  return tar;
}

const strip = (p: string) => p.replace(/^\/+/, '');

async function addDir(tar: Pack, dir: string, prefix: string): Promise<void> {
  const st = await lstat(dir);
  await entry(tar, { name: prefix, type: 'directory', mode: st.mode & 0o7777 });
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const host = join(dir, e.name);
    const name = `${prefix}/${e.name}`;
    const s = await lstat(host);
    if (s.isSymbolicLink()) await entry(tar, { name, type: 'symlink', linkname: await readlink(host) });
    else if (s.isDirectory()) await addDir(tar, host, name);
    else if (s.isFile()) await fileEntry(tar, name, host, s.size, s.mode & 0o7777);
    // sockets, FIFOs and devices have no place in a copy of a repository
  }
}

function entry(tar: Pack, header: Parameters<Pack['entry']>[0], content?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const cb = (err?: Error | null) => (err ? reject(err) : resolve());
    if (content !== undefined) tar.entry(header, content, cb);
    else tar.entry(header, cb);
  });
}

function fileEntry(tar: Pack, name: string, host: string, size: number, mode: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const sink = tar.entry({ name, size, mode }, (err) => (err ? reject(err) : resolve()));
    createReadStream(host).on('error', reject).pipe(sink);
  });
}
