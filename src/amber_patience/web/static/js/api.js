// The HTTP API (see docs/http-api.md): small wrappers that turn errors into exceptions with the server's message.

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

function detailText(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((d) => (d && d.msg ? `${(d.loc || []).join(".")}: ${d.msg}` : JSON.stringify(d))).join("; ");
  return JSON.stringify(detail);
}

async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, String(err.message || err));
  }
  const type = response.headers.get("content-type") || "";
  const data = type.includes("application/json") ? await response.json() : await response.text();
  if (!response.ok) {
    const detail = data && typeof data === "object" && "detail" in data ? detailText(data.detail) : String(data || response.statusText);
    throw new ApiError(response.status, detail);
  }
  return data;
}

export const api = {
  games: () => request("GET", "/api/games"),
  newGame: (body) => request("POST", "/api/games", body),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  move: (id, move) => request("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move }),
  setup: (id, setup) => request("POST", `/api/games/${encodeURIComponent(id)}/setup`, { setup }),
  undo: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/undo`),
  restart: (id) => request("POST", `/api/games/${encodeURIComponent(id)}/restart`),
  hint: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/hint`),
  solution: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/solution`),
  record: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/record`),
  importRecord: (record) => request("POST", "/api/records", { record }),
  saved: () => request("GET", "/api/saved"),
  abandon: (id) => request("DELETE", `/api/games/${encodeURIComponent(id)}`),
  stats: () => request("GET", "/api/stats"),
  rules: (game, lang) => request("GET", `/api/rules/${encodeURIComponent(game)}?lang=${lang}`),
};
