// Content pages carry HTML from the content service. Editors are trusted to write content, not
// scripts: anything that could run code is removed before the HTML reaches the page.

const DROPPED_ELEMENTS = 'script, style, iframe, object, embed, link, meta, base, form, frame, frameset';
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'srcset'];

function isScriptUrl(value: string): boolean {
  // Browsers ignore control characters and whitespace inside the scheme.
  let compact = '';
  for (let at = 0; at < value.length; at += 1) {
    if (value.charCodeAt(at) > 0x20) compact += value.charAt(at);
  }
  compact = compact.toLowerCase();
  return compact.startsWith('javascript:') || compact.startsWith('vbscript:') || compact.startsWith('data:text/html');
}

export function sanitizeHtml(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  const root = template.content;
  for (const element of root.querySelectorAll(DROPPED_ELEMENTS)) element.remove();
  for (const element of root.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on') || (URL_ATTRIBUTES.includes(name) && isScriptUrl(attribute.value))) {
        element.removeAttribute(attribute.name);
      }
    }
    if (element.tagName === 'A' && element.getAttribute('target') === '_blank') element.setAttribute('rel', 'noopener noreferrer');
  }
  return template.innerHTML;
}
