// The web page (service/ui/) in a real browser: Debian's Chromium, headless, driven by
// playwright-core, with a fresh profile per launch and no network but loopback. Shared by the
// page's browser test and the drift e2e that changes fields through it.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { chromium, type BrowserContext, type Page, type Request } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** Why the browser tests cannot run here, or undefined (.ci/run installs Chromium). */
export const noBrowser = (): string | undefined =>
  existsSync(CHROMIUM) ? undefined : `no ${CHROMIUM}: apt-get install -y chromium (as .ci/run does)`;

export interface UiBrowser {
  page: Page;
  /** Every request the page made, in order. */
  requests: Request[];
  close(): Promise<void>;
}

/** Opens `url` (the page, with its #key= fragment) in a fresh headless Chromium. */
export async function openUi(url: string): Promise<UiBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), "web-ui-chromium-"));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const requests: Request[] = [];
    page.on("request", (request) => requests.push(request));
    await page.goto(url);
    const opened = context;
    return {
      page,
      requests,
      close: async () => {
        await opened.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

/** The configuration form of one connector in one sub-account. */
export const configurationForm = (page: Page, accountId: string, connectorId: string) =>
  page.locator(`section[data-account="${accountId}"] form[data-connector="${connectorId}"]`);

/** Runs `action` (a click) and resolves with the status line the page then shows. */
export async function statusAfter(page: Page, action: () => Promise<void>): Promise<string> {
  const status = page.locator("#status");
  await status.evaluate((node) => (node.textContent = ""));
  await action();
  await status.filter({ hasText: /./ }).waitFor();
  return (await status.textContent()) ?? "";
}

/** Types `values` into a connector's form and saves it; resolves with the page's status line. */
export async function saveFields(
  page: Page,
  accountId: string,
  connectorId: string,
  values: Record<string, string>,
): Promise<string> {
  const form = configurationForm(page, accountId, connectorId);
  for (const [field, value] of Object.entries(values)) await form.locator(`[name="${field}"]`).fill(value);
  return statusAfter(page, () => form.getByRole("button", { name: "Save the changed fields" }).click());
}
