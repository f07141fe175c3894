import { createInterface } from 'node:readline';

/** Reads a line without echoing it on a terminal; from a pipe it reads the first line. */
export function readSecret(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    const rl = createInterface({ input, output: process.stdout, terminal: input.isTTY === true });
    if (input.isTTY) {
      const write = (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput;
      let asked = false;
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        if (!asked) {
          asked = true;
          write.call(rl, s);
        }
      };
    }
    rl.question(question, (answer) => {
      rl.close();
      if (input.isTTY) process.stdout.write('\n');
      resolve(answer);
    });
    rl.on('SIGINT', () => {
      rl.close();
      reject(new Error('Cancelled.'));
    });
  });
}
