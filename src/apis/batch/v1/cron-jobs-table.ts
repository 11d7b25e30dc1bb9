// `kubectl get cronjobs`: NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE
// AGE, and with -o wide CONTAINERS IMAGES SELECTOR, as kube's printer fills them.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, since, type TableDefinition } from '../../../registry/table.js';
import { arrayAt, objectAt, stringAt } from '../../core/v1/helpers.js';
import { containerCells } from '../../core/v1/shared-table.js';
import { CONTAINERS_COLUMN, IMAGES_COLUMN, formatLabelSelector } from './jobs-table.js';

/** printBoolPtr: True or False, `<unset>` when absent. */
function boolCell(v: unknown): string {
  if (typeof v !== 'boolean') return '<unset>';
  return v ? 'True' : 'False';
}

export const cronJobTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Schedule', description: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.' }),
    column({ name: 'Timezone', description: 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.' }),
    column({ name: 'Suspend', type: 'boolean', description: 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.' }),
    column({ name: 'Active', type: 'integer', description: 'A list of pointers to currently running jobs.' }),
    column({ name: 'Last Schedule', description: 'Information when was the last time the job was successfully scheduled.' }),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column({ name: 'Selector', priority: 1, description: 'A label query over pods that should match the pod count.' }),
  ],
  cells: (cj, now) => {
    const spec = objectAt(cj, 'spec');
    const status = objectAt(cj, 'status');
    const jobSpec = objectAt(objectAt(spec, 'jobTemplate'), 'spec');
    const { names, images } = containerCells(objectAt(objectAt(jobSpec, 'template'), 'spec'));
    const lastSchedule = stringAt(status, 'lastScheduleTime');
    const timeZone = typeof spec?.timeZone === 'string' ? spec.timeZone : '<none>';
    return [
      nameOf(cj),
      stringAt(spec, 'schedule'),
      timeZone,
      boolCell(spec?.suspend),
      arrayAt(status, 'active').length,
      lastSchedule === '' ? '<none>' : since(lastSchedule, now),
      ageOf(cj, now),
      names,
      images,
      formatLabelSelector(jobSpec?.selector),
    ];
  },
};
