// Function-calling evaluation files in the BFCL format: one question per line (its turns of messages and
// its own function definitions), and beside them, in possible_answer/<same name>, the ground truth.
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { z } from "zod";

const messageSchema = z.looseObject({ role: z.string(), content: z.string() });

export const functionQuestionSchema = z.looseObject({
  id: z.string().min(1),
  question: z.array(z.array(messageSchema)).min(1),
  function: z.array(z.unknown()).min(1),
});

/** One acceptable call: function name → parameter → the acceptable values ("" : may be left out). */
const groundTruthCallSchema = z.record(z.string(), z.record(z.string(), z.array(z.unknown())));

export const possibleAnswerSchema = z.looseObject({
  id: z.string().min(1),
  ground_truth: z.array(groundTruthCallSchema),
});

export type FunctionQuestion = z.infer<typeof functionQuestionSchema>;
export type GroundTruthCall = z.infer<typeof groundTruthCallSchema>;

export interface LoadedQuestion {
  id: string;
  /** The file's category: the id without its number (simple_python, multiple, irrelevance…). */
  category: string;
  /** The user's last message: what the agent asks. */
  request: string;
  functions: unknown[];
  /** Absent where no call is right (irrelevance) or the file has no ground truth. */
  groundTruth: GroundTruthCall[] | undefined;
  where: string;
}

function parseLines<T>(text: string, file: string, schema: z.ZodType<T>): { value: T; where: string }[] {
  return text.split("\n").flatMap((line, i) => {
    if (line.trim() === "") return [];
    const where = `${file}:${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new Error(`${where}: not JSON: ${(error as Error).message}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${where}: ${issue?.path.join(".") || "(line)"} ${issue?.message}`);
    }
    return [{ value: parsed.data, where }];
  });
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function lastUserMessage(question: FunctionQuestion, where: string): string {
  const user = question.question.flat().filter((m) => m.role === "user");
  const last = user[user.length - 1];
  if (!last) throw new Error(`${where}: question has no user message`);
  return last.content;
}

/** The questions of one BFCL-format file, each with its ground truth when possible_answer/ has it. */
export async function readFunctionQuestions(file: string): Promise<LoadedQuestion[]> {
  const text = await readText(file);
  if (text === undefined) throw new Error(`cannot read ${file}: ENOENT`);
  const questions = parseLines(text, file, functionQuestionSchema);
  const answerFile = join(dirname(file), "possible_answer", basename(file));
  const answers = new Map<string, GroundTruthCall[]>();
  const answerText = await readText(answerFile);
  if (answerText !== undefined)
    for (const { value } of parseLines(answerText, answerFile, possibleAnswerSchema))
      answers.set(value.id, value.ground_truth);
  const seen = new Set<string>();
  return questions.map(({ value, where }) => {
    if (seen.has(value.id)) throw new Error(`${where}: the id "${value.id}" is used twice`);
    seen.add(value.id);
    return {
      id: value.id,
      category: value.id.replace(/_\d+$/, ""),
      request: lastUserMessage(value, where),
      functions: value.function,
      groundTruth: answers.get(value.id),
      where,
    };
  });
}
