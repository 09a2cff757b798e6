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
 * vitest's order (project by project; the files that failed last time, then the longest, or on a fresh clone the
 * largest, first), with one change: within a project, the files of one environment run together, jsdom ones
 * first. With `isolate: false` a worker is kept from one file to the next only while the project and the
 * environment stay the same; vitest's own order alternates node and jsdom files, so a worker was stopped and
 * its successor loaded react-admin and MUI again about every other file (issue #20).
 */
export class EnvironmentGroupedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projectRank = new Map<string, number>();
    for (const spec of sorted) if (!projectRank.has(spec.project.name)) projectRank.set(spec.project.name, projectRank.size);
    const environmentRank = (spec: TestSpecification) => (/@vitest-environment\s+jsdom/.test(head(spec.moduleId)) ? 0 : 1);
    return sorted
      .map((spec, index) => ({ spec, index, project: projectRank.get(spec.project.name) ?? 0, environment: environmentRank(spec) }))
      .sort((a, b) => a.project - b.project || a.environment - b.environment || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
