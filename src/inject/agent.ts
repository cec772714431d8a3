/** PLACEHOLDER: the agent entry (replaced below). */
import { getInternal } from './internal';
const internal = getInternal();
if (internal && internal.agent === null) {
  internal.agent = () => {};
}
