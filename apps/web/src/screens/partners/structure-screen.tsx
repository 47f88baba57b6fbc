import { getStructure, type StructureNode } from '@gridbot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { useSessionUser } from '../../session/use-session-user';
import { Badge } from '../../ui/badge';
import { ChevronIcon } from '../../ui/icons';
import { Avatar } from '../../ui/list-row';
import { QueryView } from '../../ui/query-view';
import { Card, Screen } from '../../ui/screen';
import { EmptyState, ErrorState, SkeletonRows } from '../../ui/states';

/** Children of one node, loaded when it is first opened and then cached (docs/product.md#behaviour). */
const useChildren = (requiredId: number | undefined, enabled: boolean) => {
  const user = useSessionUser();
  return useApiQuery(
    getStructure,
    { query: requiredId === undefined ? {} : { required_id: requiredId }, body: { user_id: user.uid } },
    { enabled, staleTime: Number.POSITIVE_INFINITY },
  );
};

const Node = ({ node }: { node: StructureNode }) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const children = useChildren(node.user_id, open && node.hasChildren);
  return (
    <li>
      <button
        type="button"
        className="row"
        aria-expanded={node.hasChildren ? open : undefined}
        onClick={() => node.hasChildren && setOpen(!open)}
        style={{ cursor: node.hasChildren ? 'pointer' : 'default' }}
      >
        <Avatar name={node.firstName} />
        <span className="row__body">
          <span className="row__title" style={{ display: 'block' }}>
            {node.username ? `@${node.username}` : node.firstName}
          </span>
          <span className="row__subtitle" style={{ display: 'block' }}>
            {t('common.uidValue', { uid: node.user_id })} · {t('structure.team', { count: node.teamSize })}
          </span>
        </span>
        <Badge tone={node.licenseActive ? 'accent' : 'neutral'}>{node.licenseLevel}</Badge>
        {node.hasChildren ? (
          <ChevronIcon
            className="row__chevron"
            style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 150ms' }}
          />
        ) : (
          <span style={{ width: 18 }} />
        )}
      </button>
      {open ? (
        children.isPending ? (
          <SkeletonRows rows={1} />
        ) : children.isError ? (
          <ErrorState error={children.error} onRetry={() => void children.refetch()} />
        ) : (
          <Tree nodes={children.data} />
        )
      ) : null}
    </li>
  );
};

const Tree = ({ nodes }: { nodes: readonly StructureNode[] }) => (
  <ul className="tree">
    {nodes.map((node) => (
      <Node key={node.user_id} node={node} />
    ))}
  </ul>
);

/** The tree of all partners: line 1 first, each partner's team opens on tap. */
export const StructureScreen = () => {
  const { t } = useTranslation();
  const root = useChildren(undefined, true);
  return (
    <Screen back title={t('structure.title')} subtitle={t('structure.hint')}>
      <QueryView
        query={root}
        isEmpty={(nodes) => nodes.length === 0}
        empty={
          <Card>
            <EmptyState title={t('structure.empty')} />
          </Card>
        }
      >
        {(nodes) => (
          <Card flush>
            <Tree nodes={nodes} />
          </Card>
        )}
      </QueryView>
    </Screen>
  );
};
