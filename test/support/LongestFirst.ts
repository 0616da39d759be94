/**
 * The tiers' order of files: vitest's own (each project's files together; by the durations it
 * recorded, else larger files first), with the files `Tiers.longest` names moved to the front of
 * their project, in its order.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node"
import { longest } from "./Tiers.ts"

const rankOf = (spec: TestSpecification): number => {
  const at = longest.findIndex((file) => spec.moduleId.endsWith(`/${file}`))
  return at === -1 ? longest.length : at
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    const projects = [...new Set(sorted.map((spec) => spec.project.name))]
    return sorted
      .map((spec, index) => ({ spec, index, project: projects.indexOf(spec.project.name), rank: rankOf(spec) }))
      .sort((a, b) => a.project - b.project || a.rank - b.rank || a.index - b.index)
      .map(({ spec }) => spec)
  }
}
