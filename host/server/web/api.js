// Talking to the server's JSON API, under the path the server is mounted
// at (its base path, which the page's meta element names).

const meta = document.querySelector('meta[name="matombo-base"]');

// base is the server's path prefix: "" at the root, or e.g. "/games".
export const base = meta ? meta.content : "";

// url returns a root-relative path of the server (e.g. "/g/ID") under the
// base path.
export function url(path) {
  return base + path;
}

// localPath is the page's path without the base path.
export function localPath() {
  const p = location.pathname;
  return base && p.startsWith(base) ? p.slice(base.length) || "/" : p;
}

export class APIError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.code = body && body.code ? body.code : "";
  }
}

// request sends a JSON request to an API path ("/api/...") and returns the
// answer's JSON; an answer that is not 2xx throws an APIError with the
// server's message and code, a request that gets no answer (the server
// or the network down) one of status 0.
export async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url(path), init);
  } catch (e) {
    throw new APIError(0, { error: "no answer from the server: " + e.message });
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) throw new APIError(res.status, data);
  return data;
}
