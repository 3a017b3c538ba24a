"""report.html: one self-contained page (table, summary, every plot inline) readable offline."""
import base64
import html
import os

from . import table as tbl


def image_tag(directory, png):
    with open(os.path.join(directory, png), "rb") as f:
        data = base64.b64encode(f.read()).decode()
    return f'<img alt="{html.escape(png)}" src="data:image/png;base64,{data}">'


def markdown_table_to_html(lines):
    """The summary's pipe tables as HTML; other lines as paragraphs."""
    out, rows = [], []

    def flush():
        if rows:
            head, body = rows[0], rows[2:]
            out.append("<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in head) + "</tr>" +
                       "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in body) +
                       "</table>")
            rows.clear()
    for line in lines:
        if line.startswith("|"):
            rows.append([c.strip().strip("*") for c in line.strip().strip("|").split("|")])
            continue
        flush()
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            out.append(f"<h{level + 1}>{html.escape(line.lstrip('#').strip())}</h{level + 1}>")
        elif line.strip():
            out.append(f"<p>{html.escape(line.replace('`', '').replace('**', ''))}</p>")
    flush()
    return "\n".join(out)


def page(exp, rows, summary, plots, plot_dir):
    csv_rows = rows
    head = tbl.columns(exp)
    results = ("<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in head) + "</tr>" +
               "".join("<tr>" + "".join(f"<td>{html.escape(str(r.get(c, '')))}</td>" for c in head) + "</tr>"
                       for r in csv_rows) + "</table>")
    figures = "\n".join(f"<h3>{html.escape(title)}</h3>\n{image_tag(plot_dir, png)}" for title, png in plots)
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Experiment {html.escape(exp.name)}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; max-width: 1400px; }}
table {{ border-collapse: collapse; margin: 1em 0; font-size: 0.85em; }}
th, td {{ border: 1px solid #bbb; padding: 2px 6px; text-align: right; }}
th {{ background: #eee; }}
td:first-child {{ text-align: left; }}
img {{ max-width: 100%; }}
</style></head><body>
{markdown_table_to_html(summary.splitlines())}
<h2>Plots</h2>
{figures or "<p>No plots: nothing ran, or the experiment has one design and no sweep.</p>"}
<h2>All results (results.csv)</h2>
{results}
</body></html>
"""
