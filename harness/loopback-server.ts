// A test server process on loopback (moto, Azurite) that picks its own port: started, its URL
// read from what it prints, ended when the test run's process exits.
import { spawn } from "node:child_process";

export interface LoopbackServer {
  url: string;
  stop(): void;
}

/** Starts `command`, resolving with the first `http://127.0.0.1:<port>` it prints. */
export function startLoopbackServer(command: string, args: string[], hint: string): Promise<LoopbackServer> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    const stop = () => proc.kill();
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(seen)?.[0];
      if (!url) return;
      proc.stdout?.off("data", onData);
      proc.stderr?.off("data", onData);
      proc.stdout?.resume();
      proc.stderr?.resume();
      resolve({ url, stop });
    };
    proc.stdout?.on("data", onData);
    proc.stderr?.on("data", onData);
    proc.on("error", () => reject(new Error(`${command} could not start: ${hint}`)));
    proc.on("exit", (code) => reject(new Error(`${command} exited (${code}) before it listened:\n${seen}`)));
    process.once("exit", stop);
  });
}
