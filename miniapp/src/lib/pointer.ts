// A field checked when it loses focus may show a message that pushes the page down. When focus is
// lost to a press on another control, that shift would land between the press and its release
// and the control would miss its click. So such checks wait until the press is over.

let pressed = false;
let installed = false;

function install() {
  if (installed) return;
  installed = true;
  document.addEventListener('pointerdown', () => {
    pressed = true;
  }, true);
  const release = () => {
    pressed = false;
  };
  document.addEventListener('pointerup', release, true);
  document.addEventListener('pointercancel', release, true);
}

/** Runs `callback` now, or — while a pointer is pressed — once the press and its click are done. */
export function afterPointerRelease(callback: () => void): void {
  install();
  if (!pressed) {
    callback();
    return;
  }
  const later = () => {
    // The click follows the pointerup in the same task; a timeout runs after both.
    setTimeout(callback, 0);
  };
  document.addEventListener('pointerup', later, { capture: true, once: true });
}

/** Starts watching presses; call once before the first field is shown. */
export function watchPointerPresses(): void {
  install();
}
