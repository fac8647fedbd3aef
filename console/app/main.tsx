// The console's browser app: its one stylesheet (emitted as a file, so the strict Content-Security-
// Policy needs no inline style), the router under /console and the app.
import './console.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { ConsoleApi } from './api.ts';
import { App } from './App.tsx';

const CONSOLE_BASE = '/console';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter basename={CONSOLE_BASE}>
      <App api={new ConsoleApi()} />
    </BrowserRouter>
  </StrictMode>,
);
