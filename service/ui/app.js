// The web page of the local service (served at /ui with --ui): plain DOM, no build step.
// It reads GET /_admin/overview and changes things through the admin API with the header
// x-admin-key. The key comes from the page URL's fragment (#key=…, which browsers never send
// to a server), is kept in sessionStorage and removed from the address bar. A configuration
// form sends only the fields changed (PATCH /_admin/configurations/…): the service merges them
// with what it holds, so a Password need not be resent. No value is ever put into a URL, and
// a Password field is never filled: the page shows only whether one is set.
"use strict";

const KEY = "embedded-service-admin-key";
const statusLine = document.getElementById("status");
const root = document.getElementById("customers");

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === false || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

function say(text, isError) {
  statusLine.textContent = text;
  statusLine.className = isError ? "error" : "";
}

/** One admin call; a refusal becomes an Error naming the route, the service's message and the request id. */
async function api(method, path, body) {
  const headers = { "x-admin-key": sessionStorage.getItem(KEY) || "" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await res.json().catch(() => ({}));
  if (res.ok) return answer.response;
  const fields = (answer.errors || []).map((e) => `${e.field} ${e.message}`).join("; ");
  const requestId = res.headers.get("x-request-id");
  throw new Error(
    `${method} ${path.split("?")[0]}: ${res.status} ${answer.statusMessage || res.statusText}` +
      (fields ? ` (${fields})` : "") +
      (requestId ? ` [request id ${requestId}]` : ""),
  );
}

const query = (accountId) => `?accountId=${encodeURIComponent(accountId)}`;

/** The input of one field; `data-original` is what the service holds (never for a Password). */
function fieldInput(field) {
  const id = `f-${Math.random().toString(36).slice(2)}`;
  const common = { id, name: field.id, "data-type": field.type, disabled: field.readonly };
  let input;
  if (field.type === "Password") {
    input = el("input", { ...common, type: "password", autocomplete: "new-password", placeholder: "unchanged" });
  } else if (field.type === "Select") {
    input = el("select", { ...common, "data-original": field.value || "" }, el("option", { value: "" }, "—"));
    for (const option of field.options || [])
      input.append(el("option", { value: option, selected: option === field.value }, option));
  } else {
    input = el("input", { ...common, type: "text", value: field.value || "", "data-original": field.value || "" });
  }
  const note = field.type === "Password" ? (field.set ? "set" : "not set") : field.type;
  const label = el("label", { for: id }, `${field.label} (${field.id})${field.required ? " *" : ""}`);
  return [label, input, el("span", { "data-note": field.id }, note)];
}

/** Only the fields whose value differs from the one held, and the Passwords typed in. */
function changedFields(form) {
  const changes = {};
  for (const input of form.querySelectorAll("input[name], select[name]")) {
    if (input.disabled) continue;
    if (input.dataset.type === "Password") {
      if (input.value !== "") changes[input.name] = input.value;
    } else if (input.value !== input.dataset.original) changes[input.name] = input.value;
  }
  return changes;
}

function configurationForm(accountId, connector) {
  const form = el("form", {
    class: "configuration",
    method: "post",
    "data-account": accountId,
    "data-connector": connector.connectorId,
    "aria-label": `configuration of ${connector.name}`,
  });
  for (const field of connector.fields) form.append(...fieldInput(field));
  form.append(el("button", { type: "submit" }, "Save the changed fields"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const changes = changedFields(form);
    const names = Object.keys(changes);
    if (names.length === 0) return say(`${connector.name}: nothing changed`, false);
    try {
      const saved = await api("PATCH", `/_admin/configurations/${connector.connectorId}${query(accountId)}`, {
        secretConfig: changes,
      });
      await refresh();
      say(`${connector.name}: saved ${names.join(", ")} (lastUpdated ${readableTime(saved.lastUpdated)})`, false);
    } catch (error) {
      say(`${connector.name}: ${error.message}`, true);
    }
  });
  return form;
}

/** lastUpdated (Unix seconds, 0: never saved) as a reader reads a time: UTC, to the second. */
function readableTime(seconds) {
  if (!seconds) return "never";
  return `${new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

function connectorRow(accountId, connector) {
  const remove = el("button", { type: "button", "data-remove": connector.connectorId }, "Remove");
  remove.addEventListener("click", () =>
    act(`Remove ${connector.name}`, () =>
      api("DELETE", `/_admin/connectors/${connector.connectorId}${query(accountId)}`),
    ),
  );
  const cells = [
    connector.name,
    connector.connectorId,
    connector.supportedType,
    connector.configured ? "yes" : "no",
    readableTime(connector.lastUpdated),
    String(connector.srcConnections),
    String(connector.destConnections),
  ];
  return el(
    "tr",
    { "data-connector": connector.connectorId },
    ...cells.map((c) => el("td", {}, c)),
    el("td", {}, remove),
  );
}

function connectionsSection(sub) {
  const nameOf = new Map(sub.connectors.map((c) => [c.connectorId, c.name]));
  const list = el("ul", {});
  for (const connection of sub.connections) {
    const drop = el("button", { type: "button", "data-delete-connection": connection.connectionId }, "Delete");
    drop.addEventListener("click", () =>
      act("Delete the connection", () => api("DELETE", `/_admin/connections/${connection.connectionId}`)),
    );
    const text = `${connection.connectionId}: ${nameOf.get(connection.sourceConnectorId)} → ${nameOf.get(connection.destinationConnectorId)} `;
    list.append(el("li", {}, text, drop));
  }
  const pick = (side) => {
    const select = el("select", { name: side });
    for (const c of sub.connectors.filter((c) => c.supportedType === side))
      select.append(el("option", { value: c.connectorId }, c.name));
    return select;
  };
  const source = pick("Source");
  const destination = pick("Destination");
  const create = el("form", { method: "post", "data-connect": sub.accountId }, source, " → ", destination, " ");
  create.append(el("button", { type: "submit" }, "Connect"));
  create.addEventListener("submit", (event) => {
    event.preventDefault();
    act("Connect", () =>
      api("POST", "/_admin/connections", {
        accountId: sub.accountId,
        sourceConnectorId: source.value,
        destinationConnectorId: destination.value,
      }),
    );
  });
  return [el("h4", {}, "Connections"), list, create];
}

function subAccountSection(sub) {
  const section = el("section", { "data-account": sub.accountId }, el("h3", {}, `Sub-account ${sub.accountId}`));
  if (sub.connectors.length === 0) {
    section.append(el("p", {}, "No connectors added."));
    return section;
  }
  const head = ["name", "id", "type", "configured", "lastUpdated", "srcConnections", "destConnections", ""];
  section.append(
    el(
      "table",
      {},
      el("tr", {}, ...head.map((h) => el("th", {}, h))),
      ...sub.connectors.map((c) => connectorRow(sub.accountId, c)),
    ),
  );
  for (const connector of sub.connectors) {
    section.append(el("h4", {}, `${connector.name}: configuration`), configurationForm(sub.accountId, connector));
  }
  section.append(...connectionsSection(sub));
  return section;
}

function render(overview) {
  root.replaceChildren();
  for (const customer of overview.customers) {
    root.append(
      el("h2", {}, `Customer ${customer.clientId} (organization account ${customer.organizationAccountId})`),
      ...customer.subAccounts.map(subAccountSection),
    );
  }
}

async function refresh() {
  render(await api("GET", "/_admin/overview"));
}

/** Runs one change, then shows the service's state again (or the refusal, e.g. Remove's 409). */
async function act(what, call) {
  try {
    await call();
    await refresh();
    say(`${what}: done`, false);
  } catch (error) {
    say(`${what}: ${error.message}`, true);
  }
}

const keyForm = document.getElementById("key-form");
keyForm.addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY, document.getElementById("key").value);
  open();
});

async function open() {
  try {
    await refresh();
    keyForm.hidden = true;
    say("", false);
  } catch (error) {
    keyForm.hidden = false;
    say(error.message, true);
  }
}

const fromFragment = new URLSearchParams(location.hash.slice(1)).get("key");
if (fromFragment) {
  sessionStorage.setItem(KEY, fromFragment);
  history.replaceState(null, "", location.pathname);
}
open();
