import type { App } from '../env.js';

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>vidx API</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#222}
h2{margin-top:2rem;border-bottom:1px solid #ddd} details{margin:.4rem 0;border:1px solid #e3e3e3;border-radius:6px;padding:.4rem .7rem}
summary{cursor:pointer} .m{display:inline-block;width:4.5rem;font-weight:700;text-transform:uppercase}
pre{background:#f6f6f6;padding:.6rem;overflow:auto;font-size:13px}
</style></head><body><h1>vidx API</h1>
<p>Every request but <code>/health</code>, <code>/openapi.json</code>, <code>/docs</code> and signed <code>/files/</code> links carries <code>x-api-key</code>. The machine-readable document is at <a href="openapi.json">/openapi.json</a>.</p>
<div id="out">Loading…</div>
<script>
fetch('openapi.json').then(r=>r.json()).then(doc=>{
  const out=document.getElementById('out'); out.textContent='';
  const esc=s=>String(s).replace(/[&<>]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
  const byTag={};
  for(const [path,ops] of Object.entries(doc.paths)) for(const [m,op] of Object.entries(ops)) (byTag[(op.tags||['other'])[0]] ??= []).push([m,path,op]);
  for(const [tag,list] of Object.entries(byTag)){
    const h=document.createElement('h2'); h.textContent=tag; out.appendChild(h);
    for(const [m,path,op] of list){
      const d=document.createElement('details');
      d.innerHTML='<summary><span class="m">'+m+'</span><code>'+esc(path)+'</code> — '+esc(op.summary||'')+'</summary><pre>'+esc(JSON.stringify({parameters:op.parameters,requestBody:op.requestBody,responses:op.responses},null,2))+'</pre>';
      out.appendChild(d);
    }
  }
  const h=document.createElement('h2'); h.textContent='schemas'; out.appendChild(h);
  const p=document.createElement('pre'); p.textContent=JSON.stringify(doc.components?.schemas??{},null,2); out.appendChild(p);
});
</script></body></html>`;

/**
 * GET /docs: a self-contained page that renders /openapi.json (no CDN: nothing leaves the machine).
 * @example
 * docsRoutes(app);
 */
export function docsRoutes(app: App): void {
  app.get('/docs', (c) => c.html(PAGE));
}
