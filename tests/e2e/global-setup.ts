// Once per browser run: the studio's browser app, shared by every studio the journeys start.
import { buildStudioApp } from '../../studio/build-app.ts';
import { REPO, STUDIO_APP_DIR } from '../../studio/testing/running-studio.ts';

export default async function globalSetup(): Promise<void> {
  await buildStudioApp(REPO, STUDIO_APP_DIR);
}
