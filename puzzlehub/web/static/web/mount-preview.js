// Mounts every definition preview on the page (web/_preview.html): a file, not an inline script, so
// the content security policy can refuse every inline script.
import { mountAll } from "./preview.js";

mountAll();
