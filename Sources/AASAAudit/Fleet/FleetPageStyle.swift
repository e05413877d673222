/// The style sheet of the HTML fleet report (``FleetPage``), inline and allowed by its SHA-256
/// in the page's Content-Security-Policy. Colours that also read in grey: each verdict's label
/// is written beside its colour.
enum FleetPageStyle {
    static let text = """
        :root { --current: #2e7d32; --legacy: #1565c0; --needs-attention: #ef6c00; --broken: #c62828; \
        --not-audited: #757575; --ink: #1b1b1b; --muted: #5f6368; --line: #dadce0; }
        body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0 auto; \
        max-width: 1200px; padding: 1.5rem; }
        h1 { margin: 0 0 .25rem; font-size: 1.8rem; } h2 { margin-top: 2rem; font-size: 1.25rem; }
        .lede { color: var(--muted); margin: 0; } .lede strong { color: var(--ink); font-size: 1.2rem; }
        svg.bar { width: 100%; height: 40px; border-radius: 4px; }
        svg.timeline { width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
        .verdict-current { fill: var(--current); background: var(--current); }
        .verdict-legacy { fill: var(--legacy); background: var(--legacy); }
        .verdict-needs-attention { fill: var(--needs-attention); background: var(--needs-attention); }
        .verdict-broken { fill: var(--broken); background: var(--broken); }
        .verdict-not-audited { fill: var(--not-audited); background: var(--not-audited); }
        tr.domain.verdict-current, tr.domain.verdict-legacy, tr.domain.verdict-needs-attention, \
        tr.domain.verdict-broken, tr.domain.verdict-not-audited { background: none; }
        .mark.expired, .swatch.expired { fill: var(--broken); background: var(--broken); }
        .mark.soon, .swatch.soon { fill: var(--needs-attention); background: var(--needs-attention); }
        .mark.later, .swatch.later { fill: var(--current); background: var(--current); }
        .mark { fill-opacity: .75; stroke: #fff; }
        .tick { stroke: var(--line); } .tick-label { font-size: 11px; fill: var(--muted); text-anchor: middle; }
        .now { stroke: var(--ink); stroke-dasharray: 4 3; } .now-label { font-size: 11px; fill: var(--ink); }
        ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4rem 1.4rem; }
        .swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .35rem; \
        vertical-align: -1px; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; \
        overflow-wrap: anywhere; unicode-bidi: isolate; }
        th[data-sort] { cursor: pointer; text-decoration: underline dotted; }
        tr.domain { cursor: pointer; } tr.domain:hover { background: #f6f8fa; }
        .pill { color: #fff; padding: .05rem .45rem; border-radius: 999px; font-size: .85rem; white-space: nowrap; }
        .filters { display: flex; flex-wrap: wrap; gap: .6rem 1rem; align-items: center; margin-bottom: .6rem; }
        #row-count { color: var(--muted); margin-left: auto; }
        .detail { padding: .25rem .5rem .75rem; } .detail dl { display: grid; grid-template-columns: max-content 1fr; \
        gap: .15rem 1rem; margin: 0 0 .5rem; } .detail dt { color: var(--muted); } .detail dd { margin: 0; \
        overflow-wrap: anywhere; }
        .findings { margin: 0; padding-left: 1.2rem; } .severity { font-weight: 600; }
        .sev-error .severity { color: var(--broken); } .sev-warning .severity { color: var(--needs-attention); }
        .sev-deprecation .severity { color: var(--legacy); }
        details summary { cursor: pointer; } code { font-size: .9em; }
        @media print { .filters, noscript { display: none; } }
        """
}
