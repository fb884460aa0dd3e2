// Mounts every player on the page (web/_player.html): a file, not an inline script, so the content
// security policy can refuse every inline script.
import { mountAll } from "./player.js";

mountAll();
