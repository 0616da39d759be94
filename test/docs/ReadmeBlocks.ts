/**
 * The README's fenced code blocks, each with the section it sits in, so the
 * tests can run them as a reader would copy them.
 */
import { readFileSync } from "node:fs"

export const root = new URL("../../", import.meta.url).pathname

export interface Block {
  /** The `## ` heading above the block. */
  readonly section: string
  /** The fence's info string: `sh`, `json`, `ts`, or `""`. */
  readonly info: string
  readonly body: string
}

/** Every fenced block of a Markdown text, in order. */
export const blocksOf = (markdown: string): ReadonlyArray<Block> => {
  const blocks: Array<Block> = []
  let section = ""
  let open: { readonly info: string; readonly lines: Array<string> } | undefined
  for (const line of markdown.split("\n")) {
    if (open !== undefined) {
      if (line.startsWith("```")) {
        blocks.push({ section, info: open.info, body: open.lines.join("\n") })
        open = undefined
      } else {
        open.lines.push(line)
      }
    } else if (line.startsWith("```")) {
      open = { info: line.slice(3).trim(), lines: [] }
    } else if (line.startsWith("## ")) {
      section = line.slice(3).trim()
    }
  }
  return blocks
}

export const readme = (): ReadonlyArray<Block> => blocksOf(readFileSync(`${root}README.md`, "utf8"))

/** The blocks of one section with one info string, in order. */
export const blocksIn = (section: string, info: string): ReadonlyArray<string> =>
  readme().filter((block) => block.section === section && block.info === info).map((block) => block.body)
