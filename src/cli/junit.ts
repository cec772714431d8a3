/**
 * junit.xml for `layout-cost audit`: one test case per budget check, so any CI
 * shows which component went over which budget. A failing case's message
 * names the component, the figure and the budget; a warning (the DOM-size
 * warning threshold) passes and says so in its system-out. Component names
 * are the page's data: escaped, and characters XML cannot carry dropped.
 */
import type { AuditReport } from './report';

// Characters XML 1.0 cannot carry at all (C0 controls but tab, newline, return; lone surrogates; U+FFFE/F).
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlEscape(s: string): string {
  return s.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export function junitXml(r: AuditReport, seconds: number): string {
  const suite = `layout-cost audit ${r.url}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="layout-cost" tests="${r.checks.length}" failures="${r.failures}" time="${seconds.toFixed(1)}">`,
    `  <testsuite name="${xmlEscape(suite)}" tests="${r.checks.length}" failures="${r.failures}" errors="0" skipped="0" `
      + `time="${seconds.toFixed(1)}" timestamp="${r.date.replace(/\.\d+Z$/, '')}">`,
    '    <properties>',
    `      <property name="url" value="${xmlEscape(r.url)}"/>`,
    `      <property name="browser" value="${xmlEscape(r.browser)}"/>`,
    `      <property name="frames" value="${r.frames}"/>`,
    '    </properties>',
  ];
  for (const c of r.checks) {
    const cls = c.target === 'page' ? 'layout-cost.page' : `layout-cost.components.${c.name}`;
    lines.push(`    <testcase classname="${xmlEscape(cls)}" name="${xmlEscape(c.id)}" time="0">`);
    if (!c.pass) {
      lines.push(`      <failure message="${xmlEscape(c.message)}" type="budget">${xmlEscape(
        `${c.message}\nvalue: ${c.value}\nbudget: ${c.limit}${c.instance ? `\ninstance: ${c.instance.path}` : ''}`,
      )}</failure>`);
    } else if (c.level === 'warn' && c.value > c.limit) {
      lines.push(`      <system-out>${xmlEscape(`warning: ${c.message}`)}</system-out>`);
    }
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
