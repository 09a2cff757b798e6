import { openSync, readSync, closeSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The first bytes of a file: where a `// @vitest-environment` comment has to be. */
function head(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(200);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The server's files first: many of them wait (on PostgreSQL, sockets, child processes, the broadcast crash test's
 * 30-s lease) while the console's only compute. In vitest's order (by name: the console first) the last server files
 * waited alone at the end of the run, about 15 s of idle cores; with the console's last, its smallest files end it.
 */
const PROJECTS_FIRST = ['server'];

/**
 * vitest's order (project by project, the files that failed last time, then the longest, or on a fresh clone the
 * largest, first), with two changes: the projects of PROJECTS_FIRST lead, and within a project the files of one
 * environment run together, jsdom ones first. With `isolate: false` a worker is kept from one file to the next only while the project and the
 * environment stay the same; vitest's own order alternates node and jsdom files, so a worker was stopped and
 * its successor loaded react-admin and MUI again about every other file (issue #20).
 */
export class EnvironmentGroupedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projectRank = new Map<string, number>(PROJECTS_FIRST.map((name, rank) => [name, rank]));
    for (const spec of sorted) if (!projectRank.has(spec.project.name)) projectRank.set(spec.project.name, projectRank.size);
    const environmentRank = (spec: TestSpecification) => (/@vitest-environment\s+jsdom/.test(head(spec.moduleId)) ? 0 : 1);
    return sorted
      .map((spec, index) => ({ spec, index, project: projectRank.get(spec.project.name) ?? 0, environment: environmentRank(spec) }))
      .sort((a, b) => a.project - b.project || a.environment - b.environment || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
