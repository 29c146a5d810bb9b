// The server's HTTP API (docs/serve.md). The token travels in an HttpOnly cookie the browser
// sends with every same-origin request: the page never sees it.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(method, path, body, options = {}) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (options.keepalive) init.keepalive = true;
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "the server does not answer: is castle serve still running?");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const why = data && typeof data.error === "string" ? data.error : response.statusText;
    if (response.status === 401) {
      throw new ApiError(401, "this page needs the address castle serve printed (with its token)");
    }
    throw new ApiError(response.status, why || `error ${response.status}`);
  }
  return data;
}

export const api = {
  levels: () => call("GET", "/api/levels"),
  view: () => call("GET", "/api/view"),
  newDeal: (level, confirmed = false, deal = null) => call("POST", "/api/new", { level, confirmed, deal }),
  continueGame: () => call("POST", "/api/continue", {}),
  act: (action, options) => call("POST", "/api/act", action, options),
  lift: (src, count) => call("GET", `/api/lift?src=${src}&count=${count}`),
  guide: (level) => call("GET", `/api/guide?level=${encodeURIComponent(level)}`),
  settings: () => call("GET", "/api/settings"),
  saveSettings: (settings) => call("POST", "/api/settings", settings),
};
