// What the fleet shows of an engine's text, a store's reason or any other text that may quote
// the backend's URL (progress lines, the JSON, Markdown and JUnit reports, the terminal table,
// `fleet adopt`'s report, the command's error): passed through the one credential rule
// (provider/client/url-credentials.ts), told the backend URLs this process resolved, so that
// their password is hidden even where the text breaks a URL apart.
import { scrubCredentials } from "../../provider/client/url-credentials";
import { currentBackend } from "../../provider/project/pulumi-project";

const knownBackends = new Set<string>();

/** Remembers the backend the CLI run in `projectDir` uses (its URL may carry a password). */
export function knowBackendOf(projectDir: string, env: NodeJS.ProcessEnv = process.env): void {
  const choice = currentBackend(projectDir, env);
  if ("url" in choice) knownBackends.add(choice.url);
}

/** `text` as the fleet may show it: no URL's credentials, no known backend's password. */
export function shownText(text: string): string {
  return scrubCredentials(text, [process.env.PULUMI_BACKEND_URL, ...knownBackends]);
}
