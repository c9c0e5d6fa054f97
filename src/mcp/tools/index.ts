/**
 * Every MCP tool, in the order clients list them. A new tool is one file in this folder and one line here.
 */
import type { ToolDef } from '../tool.js';
import { addFolder } from './add-folder.js';
import { analyzeVideo } from './analyze-video.js';
import { duplicates } from './duplicates.js';
import { getAnalysis } from './get-analysis.js';
import { getTask } from './get-task.js';
import { getTranscript } from './get-transcript.js';
import { indexVideo } from './index-video.js';
import { listCollections } from './list-collections.js';
import { people } from './people.js';
import { reindex } from './reindex.js';
import { search } from './search.js';
import { suggest } from './suggest.js';
import { ask } from './ask.js';

/**
 * The tools both transports serve.
 * @example
 * for (const tool of TOOLS) server.registerTool(tool.name, …);
 */
export const TOOLS: readonly ToolDef[] = [listCollections, search, ask, getAnalysis, getTranscript, indexVideo, analyzeVideo, addFolder, getTask, suggest, people, reindex, duplicates];
