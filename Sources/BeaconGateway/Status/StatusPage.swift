/// The status page: one self-contained HTML document (styles and script inline, no CDN, no
/// build step), compiled into the binary. It reads the JSON API (``StatusAPI``) and follows
/// `GET /api/events`; everything it shows is rendered as text nodes, never as HTML.
///
/// It stays responsive with 10,000 beacons: the beacon table renders only the rows in view and
/// asks the server for that window (sorted and filtered server-side); the RSSI plot is drawn for
/// the selected beacon only; the map draws at most 2,000 positions.
enum StatusPage {
    /// What the page may load: only itself and its own API.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; "
        + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static let html = ##"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>beacond status</title>
        <style>
        :root { --bg:#f6f7f9; --card:#fff; --ink:#1d232b; --mute:#687385; --line:#e3e7ed; --accent:#2463eb;
                --ok:#1a8a4a; --warn:#b7791f; --bad:#c53030; font: 14px/1.4 system-ui, sans-serif; }
        body { margin:0; background:var(--bg); color:var(--ink); }
        header { display:flex; gap:20px; align-items:baseline; padding:10px 18px; background:#1d232b; color:#fff; flex-wrap:wrap; }
        header h1 { font-size:17px; margin:0; }
        header .stat { color:#c9d1dc; } header .stat b { color:#fff; font-weight:600; }
        #live { margin-left:auto; } #live.on::before { content:"\25CF "; color:#38d996; } #live.off::before { content:"\25CF "; color:#f56565; }
        main { display:grid; grid-template-columns: minmax(0,3fr) minmax(0,2fr); gap:14px; padding:14px 18px; }
        section { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:10px 12px; min-width:0; }
        section h2 { font-size:14px; margin:0 0 8px; display:flex; gap:10px; align-items:center; }
        section h2 .count { color:var(--mute); font-weight:400; }
        .wide { grid-column: 1 / -1; }
        table { border-collapse:collapse; width:100%; font-variant-numeric: tabular-nums; }
        th, td { text-align:left; padding:3px 6px; border-bottom:1px solid var(--line); white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
        th { color:var(--mute); font-weight:500; cursor:pointer; user-select:none; position:sticky; top:0; background:var(--card); }
        th.sorted::after { content:" \25B2"; } th.sorted.desc::after { content:" \25BC"; }
        input[type=search] { padding:4px 8px; border:1px solid var(--line); border-radius:6px; min-width:220px; }
        #beacon-scroll { height:360px; overflow-y:auto; position:relative; }
        #beacon-table { table-layout:fixed; }
        #beacon-table tbody tr { height:26px; cursor:pointer; }
        #beacon-table tbody tr:hover { background:#eef3fd; } #beacon-table tbody tr.selected { background:#dce7fd; }
        .mono { font-family: ui-monospace, monospace; font-size:12px; }
        .band-immediate { color:var(--ok); font-weight:600; } .band-near { color:var(--ok); } .band-far { color:var(--warn); } .band-unknown { color:var(--mute); }
        .bar { display:inline-block; width:120px; height:10px; background:var(--line); border-radius:5px; vertical-align:middle; overflow:hidden; }
        .bar > i { display:block; height:100%; background:var(--accent); }
        .bar.done > i { background:var(--ok); }
        .pill { display:inline-block; padding:0 6px; border-radius:9px; font-size:12px; margin-right:3px; background:var(--line); }
        .pill.delivered { background:#d5f5e3; color:var(--ok); } .pill.failed { background:#fde2e2; color:var(--bad); } .pill.pending { background:#fdf1d8; color:var(--warn); }
        .kind-created { color:var(--accent); } .kind-delivered { color:var(--ok); } .kind-cancelled { color:var(--warn); } .kind-error { color:var(--bad); }
        .muted { color:var(--mute); }
        #plot { width:100%; height:170px; display:block; }
        #site-map { width:100%; height:420px; display:block; background:#fbfcfd; border:1px solid var(--line); border-radius:6px; }
        .scroll { max-height:300px; overflow-y:auto; }
        #log-rows td.mono, #waiting-rows td.mono { max-width:150px; }
        .legend span { margin-right:12px; } .legend i { display:inline-block; width:14px; height:3px; vertical-align:middle; margin-right:4px; }
        @media (max-width: 900px) { main { grid-template-columns: 1fr; } }
        </style>
        </head>
        <body>
        <header>
          <h1>beacond</h1>
          <span class="stat">source <b id="source">…</b></span>
          <span class="stat">time <b id="time">…</b></span>
          <span class="stat">beacons <b id="tracked">0</b></span>
          <span class="stat">packets <b id="packets">0</b></span>
          <span class="stat">outbox <b id="outbox">–</b></span>
          <span id="live" class="off">connecting</span>
        </header>
        <main>
          <section id="beacons">
            <h2>Beacons <span class="count" id="beacon-count"></span>
              <input type="search" id="filter" placeholder="filter: id, title, room, band, address" aria-label="filter beacons"></h2>
            <div id="beacon-scroll">
              <table id="beacon-table">
                <colgroup><col style="width:34%"><col style="width:16%"><col style="width:11%"><col style="width:10%"><col style="width:10%"><col style="width:12%"><col style="width:7%"></colgroup>
                <thead><tr>
                  <th data-sort="id">beacon</th><th data-sort="title">title</th><th data-sort="proximity">band / room</th>
                  <th data-sort="distance">distance</th><th data-sort="rssi">RSSI</th><th data-sort="lastSeen">last seen</th><th data-sort="addresses">addr.</th>
                </tr></thead>
                <tbody id="beacon-rows"></tbody>
              </table>
            </div>
          </section>
          <section id="detail">
            <h2>RSSI <span class="count mono" id="detail-id">select a beacon</span></h2>
            <canvas id="plot" width="600" height="170"></canvas>
            <div class="legend muted" id="plot-legend"></div>
            <div id="detail-states"></div>
          </section>
          <section id="strategies">
            <h2>Strategies</h2>
            <div id="strategy-list" class="scroll"></div>
          </section>
          <section id="alerts">
            <h2>Waiting alerts <span class="count" id="waiting-count"></span></h2>
            <div class="scroll" style="max-height:140px"><table><thead><tr><th>alert</th><th>beacon</th><th>why</th><th>until</th></tr></thead><tbody id="waiting-rows"></tbody></table></div>
            <h2 style="margin-top:10px">Alert log <span class="count" id="log-count"></span></h2>
            <div class="scroll"><table><thead><tr><th>#</th><th>time</th><th>event</th><th>alert</th><th>beacon</th><th>sinks</th></tr></thead><tbody id="log-rows"></tbody></table></div>
          </section>
          <section id="site" class="wide" hidden>
            <h2>Site <span class="count" id="site-summary"></span></h2>
            <svg id="site-map" role="img" aria-label="floor plan"></svg>
          </section>
        </main>
        <script>
        "use strict";
        const $ = (id) => document.getElementById(id);
        const ROW = 26, SVG = "http://www.w3.org/2000/svg";
        const state = { sort: "id", order: "asc", filter: "", selected: null, total: 0, site: false, logAfter: 0, log: [] };

        function el(tag, attrs, ...children) {
          const node = document.createElement(tag);
          for (const [k, v] of Object.entries(attrs || {})) {
            if (v === null || v === undefined) continue;
            if (k === "class") node.className = v; else if (k === "style") node.style.cssText = v; else node.setAttribute(k, v);
          }
          for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(child ?? ""));
          return node;
        }
        function svg(tag, attrs, text) {
          const node = document.createElementNS(SVG, tag);
          for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
          if (text !== undefined) node.textContent = text;
          return node;
        }
        async function get(path) {
          const response = await fetch(path, { cache: "no-store" });
          if (!response.ok) throw new Error(path + ": " + response.status);
          return response.json();
        }
        const clock = (iso) => iso ? iso.slice(11, 19) : "–";
        const ago = (iso, now) => (iso && now) ? Math.max(0, (Date.parse(now) - Date.parse(iso)) / 1000).toFixed(0) + " s ago" : "–";
        const num = (v, unit, digits) => v === null || v === undefined ? "–" : v.toFixed(digits ?? 1) + (unit || "");
        const shortID = (id) => id.length > 40 ? id.slice(0, 18) + "…" + id.slice(-16) : id;

        // Header, from /api/status (and every server-sent event).
        function showStatus(s) {
          $("source").textContent = s.source;
          $("time").textContent = s.time ? s.time.replace("T", " ").slice(0, 19) : "–";
          $("tracked").textContent = s.beaconsTracked;
          $("packets").textContent = s.packets;
          $("outbox").textContent = Object.entries(s.outbox).map(([k, v]) => k + " " + v).join(", ") || "–";
          if (s.site && !state.site) { state.site = true; $("site").hidden = false; }
        }

        // The beacon table: only the rows in view are rendered; the server sorts and filters.
        async function loadBeacons() {
          const scroller = $("beacon-scroll");
          const first = Math.max(0, Math.floor(scroller.scrollTop / ROW) - 5);
          const count = Math.ceil(scroller.clientHeight / ROW) + 10;
          const query = new URLSearchParams({ sort: state.sort, order: state.order, filter: state.filter, offset: first, limit: count });
          const page = await get("/api/beacons?" + query);
          state.total = page.total;
          $("beacon-count").textContent = page.total + (state.filter ? " matching" : " in range");
          const body = $("beacon-rows");
          body.replaceChildren();
          body.append(el("tr", { style: "height:" + (page.offset * ROW) + "px" }));
          for (const b of page.beacons) {
            const band = b.room ? b.room + " · " + b.proximity : b.proximity;
            const row = el("tr", { "data-id": b.id, class: b.id === state.selected ? "selected" : "", title: b.id + (b.address ? "\n" + b.address : "") },
              el("td", { class: "mono" }, shortID(b.id)), el("td", {}, b.title ?? ""),
              el("td", { class: "band-" + b.proximity }, band), el("td", {}, num(b.distance, " m", 2)),
              el("td", {}, num(b.rssi, "")), el("td", {}, ago(b.lastSeen, page.time)), el("td", {}, String(b.addresses)));
            row.addEventListener("click", () => select(b.id));
            body.append(row);
          }
          body.append(el("tr", { style: "height:" + Math.max(0, (page.total - page.offset - page.beacons.length) * ROW) + "px" }));
        }
        for (const th of document.querySelectorAll("#beacon-table th[data-sort]")) {
          th.addEventListener("click", () => {
            const key = th.dataset.sort;
            state.order = state.sort === key && state.order === "asc" ? "desc" : "asc";
            state.sort = key;
            for (const other of document.querySelectorAll("#beacon-table th")) other.classList.remove("sorted", "desc");
            th.classList.add("sorted"); if (state.order === "desc") th.classList.add("desc");
            loadBeacons();
          });
        }
        let filterTimer = null;
        $("filter").addEventListener("input", (e) => {
          clearTimeout(filterTimer);
          filterTimer = setTimeout(() => { state.filter = e.target.value.trim(); $("beacon-scroll").scrollTop = 0; loadBeacons(); }, 200);
        });
        let scrollPending = false;
        $("beacon-scroll").addEventListener("scroll", () => {
          if (scrollPending) return;
          scrollPending = true;
          requestAnimationFrame(() => { scrollPending = false; loadBeacons(); });
        });

        function select(id) {
          state.selected = id;
          $("detail-id").textContent = id;
          for (const row of document.querySelectorAll("#beacon-rows tr")) row.classList.toggle("selected", row.dataset.id === id);
          loadDetail();
        }

        // The selected beacon's RSSI over the last minutes, raw and filtered (per gateway on a site).
        const COLORS = ["#2463eb", "#d97706", "#059669", "#db2777", "#7c3aed", "#0891b2", "#65a30d", "#dc2626"];
        async function loadDetail() {
          if (!state.selected) return;
          const history = await get("/api/beacons/history?id=" + encodeURIComponent(state.selected));
          const states = await get("/api/strategies?beacon=" + encodeURIComponent(state.selected));
          drawPlot(history);
          const box = $("detail-states");
          box.replaceChildren();
          for (const alert of states.alerts) {
            for (const s of alert.states) box.append(el("div", {}, alert.id + ": ", strategyCell(s, alert)));
          }
        }
        function drawPlot(history) {
          const canvas = $("plot"), ctx = canvas.getContext("2d");
          const width = canvas.width = canvas.clientWidth * devicePixelRatio, height = canvas.height = 170 * devicePixelRatio;
          ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.clearRect(0, 0, width, height); ctx.scale(devicePixelRatio, devicePixelRatio);
          const w = width / devicePixelRatio, h = 170, left = 34, bottom = 16;
          const series = [{ name: "raw", color: "#9aa5b4", values: history.samples.map((s) => s.raw) },
                          { name: "filtered", color: "#1d232b", values: history.samples.map((s) => s.filtered) }];
          history.gateways.forEach((g, i) => series.push({ name: g, color: COLORS[i % COLORS.length], values: history.samples.map((s) => s.gateways ? s.gateways[i] : null) }));
          const all = series.flatMap((s) => s.values).filter((v) => v !== null);
          $("plot-legend").replaceChildren(...series.map((s) => el("span", {}, el("i", { style: "background:" + s.color }), s.name)));
          ctx.font = "11px system-ui"; ctx.fillStyle = "#687385";
          if (all.length === 0) { ctx.fillText("no samples yet: they are taken while the page is open", left, h / 2); return; }
          const lo = Math.floor(Math.min(...all) / 5) * 5 - 5, hi = Math.ceil(Math.max(...all) / 5) * 5 + 5;
          const times = history.samples.map((s) => Date.parse(s.time)), t0 = times[0], t1 = Math.max(times[times.length - 1], t0 + 1000);
          const x = (t) => left + (t - t0) / (t1 - t0) * (w - left - 6), y = (v) => 4 + (hi - v) / (hi - lo) * (h - bottom - 8);
          ctx.strokeStyle = "#e3e7ed";
          for (let v = lo; v <= hi; v += 10) { ctx.beginPath(); ctx.moveTo(left, y(v)); ctx.lineTo(w, y(v)); ctx.stroke(); ctx.fillText(v + "", 2, y(v) + 4); }
          ctx.fillText(clock(history.samples[0].time), left, h - 3);
          ctx.fillText(clock(history.samples[history.samples.length - 1].time), w - 52, h - 3);
          for (const s of series) {
            ctx.strokeStyle = s.color; ctx.lineWidth = s.name === "filtered" ? 2 : 1.2; ctx.beginPath();
            let drawing = false;
            s.values.forEach((v, i) => { if (v === null) { drawing = false; return; } drawing ? ctx.lineTo(x(times[i]), y(v)) : ctx.moveTo(x(times[i]), y(v)); drawing = true; });
            ctx.stroke();
          }
        }

        // Each alert definition's strategy state per beacon.
        function strategyCell(s, alert) {
          const done = s.status === "actionDone";
          const fraction = done ? 1 : (s.progress ? s.progress.fraction : (s.conditionValid ? 1 : 0));
          const label = done
            ? "action done" + (s.resetsIn !== null ? ", resets in " + s.resetsIn.toFixed(0) + " s unseen" : "")
            : s.progress ? s.progress.value.toFixed(0) + " / " + s.progress.threshold + " " + s.progress.unit : (s.conditionValid ? "condition holds" : "waiting");
          return el("span", { class: "strategy-state", "data-alert": alert.id, "data-beacon": s.beacon, "data-status": s.status, "data-fraction": fraction },
            el("span", { class: "bar" + (done ? " done" : "") }, el("i", { style: "width:" + (fraction * 100).toFixed(0) + "%" })), " ", label);
        }
        async function loadStrategies() {
          const doc = await get("/api/strategies?limit=50");
          const list = $("strategy-list");
          list.replaceChildren();
          for (const alert of doc.alerts) {
            const head = el("div", { style: "margin:6px 0 2px" }, el("b", {}, alert.id), " ",
              el("span", { class: "muted" }, alert.strategy + (alert.title ? " · " + alert.title : "") + " · " + alert.match + " · " + alert.total + " beacons"));
            const table = el("table", {});
            if (!alert.reportsStatus) table.append(el("tr", {}, el("td", { class: "muted" }, "this strategy does not report its state")));
            for (const s of alert.states) table.append(el("tr", {}, el("td", { class: "mono" }, shortID(s.beacon)), el("td", {}, strategyCell(s, alert))));
            if (alert.total > alert.states.length) table.append(el("tr", {}, el("td", { class: "muted" }, "… and " + (alert.total - alert.states.length) + " more")));
            list.append(head, table);
          }
        }

        // Waiting alerts, the outboxes and the alert log (kept here, 500 newest, fetched by sequence).
        async function loadAlerts() {
          const doc = await get("/api/alerts?after=" + Math.max(0, state.logAfter - 50) + "&limit=500");
          const waiting = $("waiting-rows");
          waiting.replaceChildren(...doc.waiting.map((w) => el("tr", {}, el("td", {}, w.alert), el("td", { class: "mono" }, shortID(w.beacon)),
            el("td", {}, w.reason), el("td", {}, w.until.replace("T", " ").slice(0, 19)))));
          $("waiting-count").textContent = doc.waiting.length;
          const known = new Map(state.log.map((e) => [e.sequence, e]));
          for (const e of doc.log) known.set(e.sequence, e);
          state.log = [...known.values()].sort((a, b) => b.sequence - a.sequence).slice(0, 500);
          state.logAfter = doc.latest;
          $("log-count").textContent = doc.latest + " events";
          $("log-rows").replaceChildren(...state.log.map((e) => el("tr", { "data-event": e.event, "data-alert": e.alert, "data-beacon": e.beacon },
            el("td", {}, String(e.sequence)), el("td", {}, clock(e.time)), el("td", { class: "kind-" + e.event }, e.event),
            el("td", {}, e.alert + (e.title ? " · " + e.title : "")), el("td", { class: "mono" }, shortID(e.beacon)),
            el("td", {}, ...Object.entries(e.deliveries).map(([sink, d]) => el("span", { class: "pill " + d.status, title: d.error ?? d.status }, sink))))));
        }

        // The site: rooms (their gateways' extent) coloured by occupancy, gateways, positions with their uncertainty.
        async function loadSite() {
          const doc = await get("/api/site");
          const map = $("site-map");
          const placed = doc.gateways.filter((g) => g.position);
          const points = placed.map((g) => g.position).concat(doc.beacons.map((b) => b.position));
          if (doc.floorPlan) points.push({ x: doc.floorPlan.min[0], y: doc.floorPlan.min[1] }, { x: doc.floorPlan.max[0], y: doc.floorPlan.max[1] });
          if (points.length === 0) return;
          const minX = Math.min(...points.map((p) => p.x)) - 2, maxX = Math.max(...points.map((p) => p.x)) + 2;
          const minY = Math.min(...points.map((p) => p.y)) - 2, maxY = Math.max(...points.map((p) => p.y)) + 2;
          map.setAttribute("viewBox", minX + " " + (-maxY) + " " + (maxX - minX) + " " + (maxY - minY));
          const k = (maxX - minX) / 100;
          map.replaceChildren();
          if (doc.floorPlan) map.append(svg("image", { href: doc.floorPlan.image, x: doc.floorPlan.min[0], y: -doc.floorPlan.max[1],
            width: doc.floorPlan.max[0] - doc.floorPlan.min[0], height: doc.floorPlan.max[1] - doc.floorPlan.min[1], preserveAspectRatio: "none", opacity: 0.6 }));
          const most = Math.max(1, ...doc.rooms.map((r) => r.occupancy));
          for (const room of doc.rooms) {
            const mine = placed.filter((g) => g.room === room.name).map((g) => g.position);
            if (mine.length === 0) continue;
            const x0 = Math.min(...mine.map((p) => p.x)) - 1.5, x1 = Math.max(...mine.map((p) => p.x)) + 1.5;
            const y0 = Math.min(...mine.map((p) => p.y)) - 1.5, y1 = Math.max(...mine.map((p) => p.y)) + 1.5;
            map.append(svg("rect", { x: x0, y: -y1, width: x1 - x0, height: y1 - y0, rx: k, fill: "#2463eb", "fill-opacity": 0.06 + 0.3 * room.occupancy / most,
              stroke: "#2463eb", "stroke-width": k * 0.2, "data-room": room.name, "data-occupancy": room.occupancy }));
            map.append(svg("text", { x: x0 + k, y: -y1 + 3 * k, "font-size": 2.6 * k, fill: "#1d232b" }, room.name + " · " + room.occupancy));
          }
          for (const b of doc.beacons) {
            map.append(svg("circle", { cx: b.position.x, cy: -b.position.y, r: Math.max(b.position.error, k * 0.5), fill: "#d97706", "fill-opacity": 0.12 }));
            const dot = svg("circle", { cx: b.position.x, cy: -b.position.y, r: k * 0.8, fill: "#d97706", "data-id": b.id });
            dot.append(svg("title", {}, b.id + (b.room ? " in " + b.room : "") + " ± " + b.position.error + " m"));
            map.append(dot);
          }
          for (const g of placed) {
            map.append(svg("rect", { x: g.position.x - k, y: -g.position.y - k, width: 2 * k, height: 2 * k, fill: "#1d232b" }));
            map.append(svg("text", { x: g.position.x + 1.4 * k, y: -g.position.y + k, "font-size": 2.2 * k, fill: "#1d232b" }, g.id));
          }
          $("site-summary").textContent = doc.gateways.length + " gateways · " + doc.rooms.length + " rooms · " + doc.positioned + " positioned";
        }

        async function refresh() {
          const jobs = [loadBeacons(), loadStrategies(), loadAlerts(), loadDetail()];
          if (state.site) jobs.push(loadSite());
          await Promise.allSettled(jobs);
          document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
        }
        let busy = false, again = false;
        async function onStatus(s) {
          showStatus(s);
          if (busy) { again = true; return; }
          busy = true;
          try { await refresh(); } finally { busy = false; }
          if (again) { again = false; onStatus(s); }
        }
        get("/api/status").then(onStatus).catch(() => {});
        const events = new EventSource("/api/events");
        events.addEventListener("status", (e) => onStatus(JSON.parse(e.data)));
        events.onopen = () => { $("live").className = "on"; $("live").textContent = "live"; };
        events.onerror = () => { $("live").className = "off"; $("live").textContent = "reconnecting"; };
        </script>
        </body>
        </html>
        """##
}
