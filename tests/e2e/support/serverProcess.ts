/**
 * A console server process of a spec's own (what `npm run serve` runs: the compiled server with the serve
 * script's node flags), running the server and serving the console the run's shared webServer already built
 * (serverBuildDir, consoleBuildDir). The spec can stop it
 * (SIGTERM, as a deployment would) and start it again on the same port and data directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { serveEnv, serveNodeFlags, serverEntry } from '../../../scripts/build-server.mjs';
import { consoleBuildDir, serverBuildDir } from './consoleBuild';

export interface ServerProcessOptions {
  port: number;
  /** Relative to the repository, e.g. `.test-data/e2e-restart-8236`; removed before the first start. */
  dataDir: string;
  env?: Record<string, string>;
}

export class ServerProcess {
  private child: ChildProcess | null = null;
  private readonly output: string[] = [];
  readonly baseURL: string;

  constructor(private readonly options: ServerProcessOptions) {
    this.baseURL = `http://localhost:${options.port}`;
    rmSync(path.resolve(options.dataDir), { recursive: true, force: true });
  }

  /** The last lines the server printed (for failure messages). */
  log(): string {
    return this.output.join('');
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the server and resolves once /api/health/ answers. */
  async start(timeoutMs = 90_000): Promise<void> {
    if (this.running) throw new Error('the server is already running');
    const child = spawn(process.execPath, [...serveNodeFlags(), serverEntry(path.resolve(serverBuildDir()))], {
      cwd: process.cwd(),
      env: {
        ...process.env,
        ...serveEnv(),
        PORT: String(this.options.port),
        DATA_DIR: this.options.dataDir,
        PUBLIC_URL: this.baseURL,
        STATIC_DIR: consoleBuildDir(),
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        ...this.options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 300) this.output.shift();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);

    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) while starting:\n${this.log()}`);
      try {
        const res = await fetch(`${this.baseURL}/api/health/`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the server did not become healthy within ${timeoutMs} ms:\n${this.log()}`);
  }

  /** Stops the server and removes its data directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(path.resolve(this.options.dataDir), { recursive: true, force: true });
  }

  /** SIGTERM (the server's graceful shutdown), SIGKILL if it has not exited after `graceMs`; resolves once it exited. */
  async stop(graceMs = 15_000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
