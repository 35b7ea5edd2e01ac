//! The HTML report's one inline style sheet: system fonts only, light and dark themes through
//! `prefers-color-scheme`, and a print layout (light, no clipped tables, no split figures).

/// The style sheet (no data ever goes in it).
pub const CSS: &str = r#":root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa;
  --pos: #1a7f37; --neg: #cf222e; --tie: #8c959f; --accent: #0969da;
  --band: rgba(9, 105, 218, 0.16); --absent: #eaeef2; --unscored: #d4a72c;
  --same-bg: #ddf4ff; --worse-bg: #ffebe9; --better-bg: #dafbe1; --unsure-bg: #fff8c5;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #161b22;
    --pos: #3fb950; --neg: #f85149; --tie: #6e7681; --accent: #4493f8;
    --band: rgba(68, 147, 248, 0.22); --absent: #21262d; --unscored: #bb8009;
    --same-bg: #0c2d6b; --worse-bg: #5d0f12; --better-bg: #033a16; --unsure-bg: #4b3800;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1280px; margin: 0 auto; padding: 24px; }
h1 { font-size: 1.6rem; margin: 0 0 4px; }
h2 { font-size: 1.25rem; margin: 0 0 10px; }
h3 { font-size: 1.05rem; margin: 18px 0 8px; }
h1, h2, h3 { overflow-wrap: anywhere; }
section { border-top: 1px solid var(--line); padding: 18px 0; }
header { padding-bottom: 12px; }
.meta, .note, footer { color: var(--muted); }
.note { font-size: 0.9rem; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
a { color: var(--accent); overflow-wrap: anywhere; }
.scroll { overflow-x: auto; }
td code { overflow-wrap: break-word; }
table.runs td { white-space: nowrap; }
table.runs thead th { white-space: normal; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 6px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th, td, li, p { overflow-wrap: anywhere; }
td[title] { min-width: 10em; }
thead th { background: var(--panel); white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.details th[scope=row] { font-weight: 500; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 12px; margin-bottom: 12px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; }
.card h3 { margin: 0 0 6px; overflow-wrap: anywhere; }
.card dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; margin: 8px 0; font-size: 0.9rem; }
.card dt { color: var(--muted); }
.card dd { margin: 0; font-variant-numeric: tabular-nums; white-space: nowrap; }
.delta { font-size: 1.4rem; font-weight: 600; margin: 4px 0; }
.verdict { display: inline-block; border-radius: 999px; padding: 1px 10px; margin: 0; font-weight: 600; }
.verdict.better { background: var(--better-bg); }
.verdict.worse { background: var(--worse-bg); }
.verdict.same { background: var(--same-bg); }
.verdict.unsure { background: var(--unsure-bg); }
.severity { font-size: 0.8rem; font-weight: 600; text-transform: uppercase; }
.severity.blocking { color: var(--neg); }
.severity.caution { color: var(--unscored); }
.severity.info { color: var(--muted); }
.warning { color: var(--fg); }
.warning-groups > li { margin-bottom: 0.4rem; }
.warning-groups > li.important { font-weight: 600; }
.warning-groups > li > ul { font-weight: 400; }
.glossary dt { font-weight: 600; margin-top: 0.6rem; }
.glossary dd { margin: 0.15rem 0 0 0; max-width: 60rem; }
.reasons { margin: 6px 0 0; padding-left: 20px; font-size: 0.9rem; }
figure { margin: 10px 0; }
svg.figure { display: block; width: 100%; height: auto; max-width: 800px; }
svg.figure text { fill: var(--fg); font: 12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
svg.figure text.tick, svg.figure text.caption { fill: var(--muted); font-size: 11px; }
svg.figure .grid { stroke: var(--line); stroke-width: 0.5; }
svg.figure .zero { stroke: var(--fg); stroke-width: 1; }
svg.figure .target { stroke: var(--muted); stroke-width: 1; stroke-dasharray: 4 3; }
svg.figure .interval { stroke: var(--accent); stroke-width: 3; stroke-linecap: round; }
svg.figure .point { fill: var(--accent); stroke: var(--bg); stroke-width: 1.5; }
svg.figure .provisional { stroke-dasharray: 3 3; }
svg.figure circle.provisional { fill: var(--bg); stroke: var(--accent); stroke-width: 2; }
svg.figure .series { fill: none; stroke: var(--accent); stroke-width: 1.5; }
svg.figure .band { fill: var(--band); stroke: none; }
svg.figure .pos { fill: var(--pos); }
svg.figure .neg { fill: var(--neg); }
svg.figure .tie { fill: var(--tie); }
svg.figure .scored { fill: var(--accent); }
svg.figure .unscored { fill: var(--unscored); }
svg.figure .absent { fill: var(--absent); stroke: var(--line); stroke-width: 0.5; }
footer { border-top: 1px solid var(--line); padding-top: 12px; font-size: 0.85rem; }
@media print {
  :root {
    color-scheme: light;
    --bg: #ffffff; --fg: #000000; --muted: #444444; --line: #bbbbbb; --panel: #f4f4f4;
    --pos: #1a7f37; --neg: #cf222e; --tie: #8c959f; --accent: #0969da;
    --band: rgba(9, 105, 218, 0.16); --absent: #eaeef2; --unscored: #d4a72c;
    --same-bg: #ddf4ff; --worse-bg: #ffebe9; --better-bg: #dafbe1; --unsure-bg: #fff8c5;
  }
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  .scroll { overflow: visible; }
  table { page-break-inside: auto; font-size: 8.5pt; }
  th, td, table.runs td, table.runs th { white-space: normal; padding: 2px 5px; }
  tr, figure, .card { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  a { color: inherit; }
}
"#;

/// The report's own additions to [`CSS`] (the scorecard does not use them): the parts beside a
/// card's Δ, and the quality–cost figure's hollow and baseline points.
pub const REPORT_CSS: &str = r#".delta .value, .delta .beside { white-space: nowrap; }
.delta .beside { font-size: 1rem; font-weight: 500; }
svg.figure circle.hollow { fill: var(--bg); stroke: var(--accent); stroke-width: 2; }
svg.figure circle.baseline { fill: var(--muted); }
svg.figure circle.baseline.hollow { fill: var(--bg); stroke: var(--muted); }
"#;
