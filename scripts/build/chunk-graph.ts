// The browser bundle's chunks, as Rolldown reports them (not as file names or manifest keys, which
// depend on where node_modules lives): which chunks a page starts. Kept as plain data in the build's
// incremental.json, so a page rendered again later (scripts/build/incremental.ts) preloads exactly
// what the full build gave it.
import type { Rolldown } from 'vite';

export type ChunkGraphData = {
  /** The page shell's file. */
  entryFile: string;
  /** Each chunk's static imports. */
  imports: Record<string, string[]>;
  /** The island runtime (React, the providers). */
  runtime: string;
  /** react-dom's client, which the runtime imports after a yield. */
  reactDomClient: string;
  /** Block type → its chunk. */
  blocks: Record<string, string>;
  /** The content modules (`virtual:content/…`) the browser bundle holds. */
  contentModules: string[];
};

export type ChunkGraph = {
  /** The page shell's file with the chunks it imports statically: what every page starts. */
  readonly startup: readonly string[];
  readonly entryFile: string;
  /** The island runtime (React, react-dom, the providers) and the chunks of these interactive block types. */
  islandChunks(types: readonly string[]): string[];
};

const ISLAND_RUNTIME = /renderer[/\\]islands[/\\]hydrate-island\.tsx$/;
const BLOCK_MODULE = /blocks[/\\]([^/\\]+)[/\\]Block\.tsx$/;

export function chunkGraphData(outputs: readonly Rolldown.RolldownOutput[]): ChunkGraphData {
  const chunks = outputs.flatMap((output) => output.output).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (entry === undefined) throw new Error('The browser bundle has no entry chunk');
  const runtime = chunks.find((chunk) => chunk.facadeModuleId !== null && ISLAND_RUNTIME.test(chunk.facadeModuleId))?.fileName;
  if (runtime === undefined)
    throw new Error('The browser bundle has no chunk for the island runtime (renderer/islands/hydrate-island.tsx)');
  // The runtime imports react-dom's client after a yield (renderer/islands/hydrate-island.tsx); every island needs it.
  const reactDomClient = byFile
    .get(runtime)
    ?.dynamicImports.find((file) => byFile.get(file)?.moduleIds.some((id) => /[/\\]react-dom[/\\]/.test(id)));
  if (reactDomClient === undefined)
    throw new Error('The island runtime does not load react-dom dynamically (renderer/islands/hydrate-island.tsx)');
  const blocks: Record<string, string> = {};
  for (const chunk of chunks) {
    const type = chunk.facadeModuleId?.match(BLOCK_MODULE)?.[1];
    if (type !== undefined && !Object.hasOwn(blocks, type)) blocks[type] = chunk.fileName;
  }
  const contentModules = new Set(
    chunks.flatMap((chunk) => chunk.moduleIds.filter((id) => id.includes('virtual:content/')).map((id) => id.replace(/^\0/, ''))),
  );
  return {
    entryFile: entry.fileName,
    imports: Object.fromEntries(chunks.map((chunk) => [chunk.fileName, [...chunk.imports]])),
    runtime,
    reactDomClient,
    blocks,
    contentModules: [...contentModules].sort(),
  };
}

export function chunkGraph(data: ChunkGraphData): ChunkGraph {
  const withImports = (files: readonly string[]): string[] => {
    const ordered: string[] = [];
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      (Object.hasOwn(data.imports, file) ? data.imports[file]! : []).forEach(visit);
      ordered.push(file);
    };
    files.forEach(visit);
    return ordered;
  };
  return {
    startup: withImports([data.entryFile]),
    entryFile: data.entryFile,
    islandChunks(types) {
      if (types.length === 0) return [];
      const blocks = types.map((type) => {
        if (!Object.hasOwn(data.blocks, type)) throw new Error(`The browser bundle has no chunk for block "${type}"`);
        return data.blocks[type]!;
      });
      return withImports([data.runtime, data.reactDomClient, ...blocks]);
    },
  };
}
