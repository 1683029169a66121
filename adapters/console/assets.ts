/**
 * The console's two static assets, served under `/console/assets/`: the stylesheet and a small script (copy a
 * secret, confirm a destructive action). Every page works without the script. Kept here as text so every host
 * and the bundle serve them without reading files.
 */

export const consoleCss = `
:root { --fg: #1b1f24; --muted: #505a66; --line: #c9d1d9; --bg: #fff; --accent: #0b5cad; --bad: #a4161a;
  --ok: #1a6b2f; font-family: system-ui, "Segoe UI", "Noto Sans Arabic", Tahoma, sans-serif; color: var(--fg);
  background: var(--bg); line-height: 1.5; }
body { margin: 0; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, textarea:focus-visible, select:focus-visible {
  outline: 3px solid #f5a623; outline-offset: 2px; }
.skip { position: absolute; inset-inline-start: -999px; top: 0; }
.skip:focus { inset-inline-start: 1rem; background: var(--bg); padding: .5rem; z-index: 2; }
.top { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; padding: .75rem 1.5rem;
  border-bottom: 1px solid var(--line); }
.top .brand { font-weight: 700; text-decoration: none; color: var(--fg); }
.top nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
.top .lang, .top .sign-out { margin-inline-start: auto; }
.top .lang + .sign-out { margin-inline-start: 0; }
main { padding: 1rem 1.5rem 3rem; max-width: 60rem; }
main:focus { outline: none; }
h1 { font-size: 1.5rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: start; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; }
dl.fields > div { display: contents; }
dl.fields dt { font-weight: 600; }
dl.fields dd { margin: 0; }
.value-list { margin: 0; padding-inline-start: 1.25rem; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
form.stack { display: grid; gap: .75rem; max-width: 30rem; margin: 1rem 0; }
form.inline { display: inline; }
label { font-weight: 600; display: block; }
input[type=text], input[type=password], input[type=email], textarea, select { font: inherit; padding: .4rem;
  border: 1px solid #6b7580; border-radius: 4px; width: 100%; box-sizing: border-box; }
.check label { display: inline; font-weight: 400; }
button { font: inherit; padding: .4rem 1rem; border-radius: 4px; border: 1px solid var(--accent);
  background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: var(--bg); color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; }
.notice { padding: .5rem .75rem; border-inline-start: 4px solid var(--accent); background: #eef4fb; }
.error { padding: .5rem .75rem; border-inline-start: 4px solid var(--bad); background: #fbeeee; color: var(--bad); }
.ok { padding: .5rem .75rem; border-inline-start: 4px solid var(--ok); background: #eef8f0; }
.secret-value { font-size: 1.05rem; padding: .25rem .5rem; background: #f3f4f6; overflow-wrap: anywhere;
  direction: ltr; unicode-bidi: isolate; }
code { direction: ltr; unicode-bidi: isolate; }
input[type=number] { font: inherit; padding: .4rem; border: 1px solid #6b7580; border-radius: 4px; width: 100%;
  box-sizing: border-box; }
.hint { margin: .2rem 0 0; color: var(--muted); font-size: .9rem; }
.field-error { margin: .2rem 0 0; color: var(--bad); font-weight: 600; }
.field.invalid input, .field.invalid textarea, .field.invalid select { border: 2px solid var(--bad); }
fieldset { border: 1px solid var(--line); border-radius: 4px; display: grid; gap: .75rem; padding: .75rem; }
legend { font-weight: 600; padding: 0 .25rem; }
ul.links { display: flex; gap: 1rem; list-style: none; padding: 0; }
ul.reviews { list-style: none; padding: 0; }
li.review { border: 1px solid var(--line); border-radius: 6px; padding: .5rem 1rem 1rem; margin: 1rem 0; }
li.review h2 { margin-top: .5rem; }
.review-body { display: flex; gap: 1rem; align-items: flex-start; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.logo { width: 64px; height: 64px; object-fit: contain; border: 1px solid var(--line); border-radius: 4px;
  flex: none; display: inline-flex; align-items: center; justify-content: center; font-size: .8rem; }
input[aria-invalid=true] { border-color: var(--bad); border-width: 2px; }
.chart { margin: 1rem 0; }
.chart > svg { display: block; width: 100%; max-width: 40rem; height: auto; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: .5rem 0; padding: 0; }
.legend li { display: flex; align-items: center; gap: .4rem; }
.legend svg { flex: none; width: 14px; height: 14px; }
td.num, th.num { text-align: end; font-variant-numeric: tabular-nums; }
`

export const consoleJs = `"use strict";
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    if (!navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var source = document.getElementById(button.getAttribute("data-copy"));
      if (!source) return;
      navigator.clipboard.writeText(source.textContent || "").then(function () {
        button.textContent = button.getAttribute("data-copied") || button.textContent;
      });
    });
  });
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm") || "")) event.preventDefault();
    });
  });
});
`
