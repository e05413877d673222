/// The script of the HTML fleet report (``FleetPage``): the per-domain table (filter by
/// verdict, rule and text; sort; pages of 100 rows; a row opens the domain's detail), driven by
/// the page's JSON data block and by the address's fragment (`#verdict=broken&rule=ID&q=TEXT`),
/// so that a filtered view is a link.
///
/// Every string of a domain reaches the page through `textContent` (after `visible`, which
/// writes control and bidi characters as `\u{…}`), never as markup. The page's
/// Content-Security-Policy allows this script by its SHA-256 and nothing else.
enum FleetPageScript {
    static let text = #"""
        "use strict";
        (function () {
          const started = performance.now();
          const data = JSON.parse(document.getElementById("aasa-data").textContent);
          const rows = data.domains;
          const pageSize = 100;
          const state = { verdict: "", rule: "", signer: "", q: "", sort: "domain", desc: false, page: 1, open: "" };
          const el = (name, attributes, text) => {
            const node = document.createElement(name);
            for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
            if (text !== undefined && text !== null) node.textContent = visible(String(text));
            return node;
          };
          // Control and bidi characters of a domain's text, shown as escapes (they could reorder or
          // hide what follows): the characters of TerminalText.isControl, as the page's other text.
          function visible(text) {
            return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g,
              (c) => "\\u{" + c.codePointAt(0).toString(16).toUpperCase() + "}");
          }
          function readHash() {
            const params = new URLSearchParams(location.hash.replace(/^#/, ""));
            state.verdict = params.get("verdict") || "";
            state.rule = params.get("rule") || "";
            state.signer = params.get("signer") || "";
            state.q = params.get("q") || "";
            state.page = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
            state.open = params.get("open") || "";
            document.getElementById("filter-verdict").value = state.verdict;
            document.getElementById("filter-rule").value = state.rule;
            document.getElementById("filter-text").value = state.q;
          }
          function writeHash() {
            const params = new URLSearchParams();
            for (const key of ["verdict", "rule", "signer", "q"]) if (state[key]) params.set(key, state[key]);
            if (state.page > 1) params.set("page", String(state.page));
            history.replaceState(null, "", params.toString() ? "#" + params.toString() : location.pathname);
          }
          function matches(row) {
            if (state.verdict && row.verdict !== state.verdict) return false;
            if (state.rule && !row.findings.some((f) => f.rule === state.rule)) return false;
            if (state.signer && !(row.file && row.file.signer === state.signer)) return false;
            if (state.q) {
              const q = state.q.toLowerCase();
              const text = [row.domain, row.file && row.file.signer, ...(row.file ? row.file.apps : []),
                ...row.findings.map((f) => f.rule + " " + f.message)].join("\n").toLowerCase();
              if (!text.includes(q)) return false;
            }
            return true;
          }
          const verdictOrder = ["broken", "needs-attention", "legacy", "current", "not-audited"];
          const keys = {
            domain: (r) => r.domain,
            verdict: (r) => verdictOrder.indexOf(r.verdict),
            findings: (r) => r.findings.length,
            expiry: (r) => (r.file && r.file.signerNotAfter) || "~",
          };
          function sorted(list) {
            const key = keys[state.sort] || keys.domain;
            const sign = state.desc ? -1 : 1;
            return list.slice().sort((a, b) => {
              const x = key(a), y = key(b);
              if (x < y) return -sign;
              if (x > y) return sign;
              return a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0;
            });
          }
          function detail(row) {
            const box = el("div", { class: "detail" });
            const list = el("dl");
            const add = (term, value) => {
              if (value === undefined || value === null || value === "") return;
              list.append(el("dt", {}, term), el("dd", {}, value));
            };
            for (const path of row.paths) {
              add(path.url, [path.status !== null && path.status !== undefined ? "HTTP " + path.status : "no answer",
                path.contentType, path.size !== null && path.size !== undefined ? path.size + " bytes" : null,
                path.kind, path.error].filter((x) => x !== null && x !== undefined && x !== "").join(", "));
            }
            if (row.tls) {
              add("TLS", [row.tls.verdict, row.tls.version, row.tls.reason].filter(Boolean).join(", "));
              row.tls.chain.forEach((subject, index) => add("chain " + index, subject));
            }
            if (row.file) {
              add("file", [row.file.url, row.file.kind, row.file.size !== undefined ? row.file.size + " bytes" : null]
                .filter(Boolean).join(", "));
              add("signature", row.file.signature);
              add("signer", row.file.signer);
              add("signer expires", row.file.signerNotAfter);
              add("universal links for", row.file.apps.join(", "));
            }
            if (row.saved && row.saved.length) {
              const links = el("dd");
              row.saved.forEach((path, index) => {
                if (index) links.append(", ");
                links.append(el("a", { href: path }, path.split("/").pop()));
              });
              list.append(el("dt", {}, "saved (--save)"), links);
            }
            box.append(list);
            if (row.findings.length) {
              const findings = el("ul", { class: "findings" });
              for (const f of row.findings) {
                const item = el("li", { class: "sev-" + f.severity });
                const rule = el("a", { href: "#rule-" + f.rule }, f.rule);
                item.append(el("span", { class: "severity" }, f.severity), " ", rule, " ", el("span", {}, f.message));
                if (f.url) item.append(" ", el("code", {}, f.url));
                if (data.fixes[f.rule]) item.append(el("div", { class: "fix" }, "next step: " + data.fixes[f.rule]));
                findings.append(item);
              }
              box.append(findings);
            } else {
              box.append(el("p", {}, "No findings."));
            }
            return box;
          }
          function render() {
            const matching = sorted(rows.filter(matches));
            const pages = Math.max(1, Math.ceil(matching.length / pageSize));
            state.page = Math.min(state.page, pages);
            const body = document.getElementById("domain-rows");
            body.replaceChildren();
            for (const row of matching.slice((state.page - 1) * pageSize, state.page * pageSize)) {
              const line = el("tr", { class: "domain verdict-" + row.verdict, "data-domain": row.domain, tabindex: "0" });
              const errors = row.findings.filter((f) => f.severity === "error").length;
              line.append(el("td", {}, row.domain), el("td"),
                el("td", {}, String(row.findings.length) + (errors ? " (" + errors + " errors)" : "")),
                el("td", {}, row.file && row.file.signer ? row.file.signer : "—"),
                el("td", {}, row.file && row.file.signerNotAfter ? row.file.signerNotAfter.slice(0, 10) : "—"));
              line.children[1].append(el("span", { class: "pill verdict-" + row.verdict }, row.verdict));
              const toggle = () => {
                const next = line.nextElementSibling;
                if (next && next.classList.contains("detail-row")) { next.remove(); return; }
                const cell = el("td", { colspan: "5" });
                cell.append(detail(row));
                const detailRow = el("tr", { class: "detail-row" });
                detailRow.append(cell);
                line.after(detailRow);
              };
              line.addEventListener("click", toggle);
              line.addEventListener("keydown", (event) => { if (event.key === "Enter") toggle(); });
              body.append(line);
              if (state.open && state.open === row.domain) toggle();
            }
            document.getElementById("row-count").textContent =
              matching.length + " of " + rows.length + " domains" + (pages > 1 ? ", page " + state.page + " of " + pages : "");
            document.getElementById("page-previous").disabled = state.page <= 1;
            document.getElementById("page-next").disabled = state.page >= pages;
            document.body.setAttribute("data-matching", String(matching.length));
            writeHash();
          }
          document.getElementById("filter-verdict").addEventListener("change", (e) => { state.verdict = e.target.value; state.page = 1; render(); });
          document.getElementById("filter-rule").addEventListener("change", (e) => { state.rule = e.target.value; state.page = 1; render(); });
          document.getElementById("filter-text").addEventListener("input", (e) => { state.q = e.target.value; state.page = 1; render(); });
          document.getElementById("page-previous").addEventListener("click", () => { state.page -= 1; render(); });
          document.getElementById("page-next").addEventListener("click", () => { state.page += 1; render(); });
          for (const header of document.querySelectorAll("th[data-sort]")) {
            header.addEventListener("click", () => {
              const key = header.getAttribute("data-sort");
              state.desc = state.sort === key ? !state.desc : false;
              state.sort = key;
              render();
            });
          }
          window.addEventListener("hashchange", () => {
            if (location.hash.startsWith("#rule-")) return;
            readHash();
            render();
          });
          readHash();
          render();
          document.body.setAttribute("data-render-ms", (performance.now() - started).toFixed(1));
          // From the start of the navigation: the page read, parsed, and its table drawn.
          document.body.setAttribute("data-ready-at-ms", performance.now().toFixed(1));
          document.body.setAttribute("data-ready", "true");
        })();
        """#
}
