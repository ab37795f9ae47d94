// Does this tab hold something the player typed and has not sent? An update reloads every tab, but
// a tab with a half-filled form keeps it and asks instead (docs/choices.md, "Updates in every tab").
// React keeps an input's `value` attribute equal to its value, so `defaultValue` cannot tell typed
// text apart; the fields the player typed into are remembered from their `input` events instead.
const touched = new WeakSet<EventTarget>();
let watching = false;

const TEXT_TYPES = new Set(['text', 'email', 'password', 'search', 'tel', 'url', 'number', '']);

function isTextField(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  if (el instanceof HTMLTextAreaElement) return true;
  return el instanceof HTMLInputElement && TEXT_TYPES.has(el.getAttribute('type') ?? '');
}

export function watchUnsavedInput(doc: Document = document): void {
  if (watching) return;
  watching = true;
  doc.addEventListener(
    'input',
    (event) => {
      if (event.target) touched.add(event.target);
    },
    true,
  );
  // A sent form is not "unsaved" any more, even while its dialog stays open.
  doc.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (form instanceof HTMLFormElement) for (const el of Array.from(form.elements)) touched.delete(el);
    },
    true,
  );
}

/** True while a text field the player typed into is still on the page and not empty. */
export function hasUnsavedInput(doc: Document = document): boolean {
  for (const el of Array.from(doc.querySelectorAll('input, textarea'))) {
    if (touched.has(el) && isTextField(el) && el.value.trim() !== '') return true;
  }
  return false;
}
