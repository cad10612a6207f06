// The naive baseline: what a hand-written dynamic provider usually does. Every operation
// fetches a new token and opens a new connection (a fresh undici Client, closed after one
// request); a read is one Get; a create is one Add of one id; check of a configuration
// fetches its descriptors every time. Credentials come from EMBEDDED_* in the environment.
import * as pulumi from "@pulumi/pulumi";

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function send(method: string, path: string, token: string | undefined, body?: unknown): Promise<Answer> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const undici = require("undici") as typeof import("undici");
  const client = new undici.Client(new URL(process.env.EMBEDDED_BASE_URL ?? "").origin);
  try {
    const res = await client.request({
      method: method as "GET",
      path,
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } finally {
    await client.close();
  }
}

async function naiveCall(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const credentials = { clientId: process.env.EMBEDDED_CLIENT_ID, clientSecret: process.env.EMBEDDED_CLIENT_SECRET };
  const token = await send("POST", "/es/v2/oauth/client-token", undefined, credentials);
  const accessToken =
    token.body.accessToken ?? (token.body.response as Record<string, unknown> | undefined)?.accessToken;
  const account = encodeURIComponent(process.env.EMBEDDED_ACCOUNT_ID ?? "");
  const answer = await send(
    method,
    `${path}${path.includes("?") ? "&" : "?"}accountId=${account}`,
    String(accessToken),
    body,
  );
  if (answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status} ${String(answer.body.statusMessage)}`);
  return answer.body.response as Record<string, unknown>;
}

const addedProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    const result = await naiveCall("POST", "/es/v2/connectors", { connectorIds: [inputs.connectorId] });
    const view = (result.added as Record<string, unknown>[])[0] ?? {};
    return { id: String(inputs.connectorId), outs: { ...inputs, name: view.name } };
  },
  async read(id, props) {
    const view = await naiveCall("GET", `/es/v2/connectors/${id}`);
    return { id, props: { ...props, name: view.name } };
  },
  async delete(id) {
    await naiveCall("DELETE", `/es/v2/connectors/${id}`);
  },
};

const configurationProvider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    const view = await naiveCall("GET", `/es/v2/connectors/${news.connectorId}/configuration`);
    const first = (view.secretConfig as Record<string, unknown>[])[0];
    return { inputs: { ...news, configurationId: first?.configurationId } };
  },
  async create(inputs) {
    const body = { configurationId: inputs.configurationId, secretConfig: inputs.secretConfig };
    const view = await naiveCall("PUT", `/es/v2/connectors/${inputs.connectorId}/configuration`, body);
    return { id: String(inputs.connectorId), outs: { ...inputs, lastUpdated: view.lastUpdated } };
  },
  async read(id, props) {
    const view = await naiveCall("GET", `/es/v2/connectors/${id}/configuration`);
    return { id, props: { ...props, lastUpdated: view.lastUpdated } };
  },
  async update(_id, _olds, news) {
    const body = { configurationId: news.configurationId, secretConfig: news.secretConfig };
    const view = await naiveCall("PUT", `/es/v2/connectors/${news.connectorId}/configuration`, body);
    return { outs: { ...news, lastUpdated: view.lastUpdated } };
  },
  async delete() {
    // the service has no "unconfigure"
  },
};

export class NaiveAddedConnector extends pulumi.dynamic.Resource {
  constructor(name: string, args: { connectorId: pulumi.Input<string> }) {
    super(addedProvider, name, { ...args, name: undefined }, undefined, "bench-naive", "AddedConnector");
  }
}

export class NaiveConfiguration extends pulumi.dynamic.Resource {
  constructor(
    name: string,
    args: {
      connectorId: pulumi.Input<string>;
      secretConfig: pulumi.Input<Record<string, pulumi.Input<string | number>>>;
    },
  ) {
    super(
      configurationProvider,
      name,
      { ...args, lastUpdated: undefined },
      undefined,
      "bench-naive",
      "ConnectorConfiguration",
    );
  }
}
