// Every Mantine style, for the chunks past /sign-in (the signed-in layout and the other sign-in screens).
// Loaded with those chunks, not before; layered like styles/initial.ts, so a rule loaded twice changes nothing.
import '@mantine/core/styles.layer.css';
import '@mantine/notifications/styles.layer.css';
import '@mantine/charts/styles.layer.css';
