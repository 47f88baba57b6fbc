import { getStructure, type StructureNode } from '@gridbot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { useSessionUser } from '../../session/use-session-user';
import { feedback } from '../../telegram/feedback';
import { Badge } from '../../ui/badge';
import { ChevronIcon, UserIcon } from '../../ui/icons';
import { Avatar } from '../../ui/list-row';
import { QueryView } from '../../ui/query-view';
import { Card, Screen } from '../../ui/screen';
import { EmptyState, ErrorState, SkeletonRows } from '../../ui/states';
import { PartnerProfileDialog } from './partner-profile-dialog';

/**
 * Children of one node, loaded when it is first opened and then kept for the visit
 * (docs/product.md#behaviour "Structure tree"): closing and opening again asks nothing.
 */
const useChildren = (requiredId: number | undefined, enabled: boolean) => {
  const user = useSessionUser();
  return useApiQuery(
    getStructure,
    { query: requiredId === undefined ? {} : { required_id: requiredId }, body: { user_id: user.uid } },
    { enabled, staleTime: Number.POSITIVE_INFINITY },
  );
};

type OpenProfile = (uid: number) => void;

const Node = ({ node, onProfile }: { node: StructureNode; onProfile: OpenProfile }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const children = useChildren(node.user_id, open && node.hasChildren);
  const name = node.username ? `@${node.username}` : node.firstName;
  return (
    <li data-node={node.user_id} data-line={node.line}>
      <div className="tree__row">
        <button
          type="button"
          className="row tree__toggle"
          aria-expanded={node.hasChildren ? open : undefined}
          disabled={!node.hasChildren}
          onClick={() => {
            feedback('selection');
            setOpen(!open);
          }}
        >
          {node.hasChildren ? (
            <ChevronIcon className={`tree__chevron${open ? ' tree__chevron--open' : ''}`} />
          ) : (
            <span className="tree__chevron" />
          )}
          <Avatar name={node.firstName} />
          <span className="row__body">
            <span className="row__title" style={{ display: 'block' }}>
              {name}
            </span>
            <span className="row__subtitle" style={{ display: 'block' }}>
              {t('partners.line', { line: node.line })} · {format.date(node.registeredAt)} ·{' '}
              {t('structure.team', { count: node.teamSize })}
            </span>
          </span>
          <Badge tone={node.licenseActive ? 'accent' : 'neutral'}>{node.licenseLevel}</Badge>
        </button>
        <button
          type="button"
          className="icon-button tree__profile"
          aria-label={t('structure.openProfile', { name })}
          onClick={() => onProfile(node.user_id)}
        >
          <UserIcon />
        </button>
      </div>
      {open ? (
        children.isPending ? (
          <SkeletonRows rows={1} />
        ) : children.isError ? (
          <ErrorState error={children.error} onRetry={() => void children.refetch()} />
        ) : (
          <Tree nodes={children.data} onProfile={onProfile} />
        )
      ) : null}
    </li>
  );
};

const Tree = ({ nodes, onProfile }: { nodes: readonly StructureNode[]; onProfile: OpenProfile }) => (
  <ul className="tree">
    {nodes.map((node) => (
      <Node key={node.user_id} node={node} onProfile={onProfile} />
    ))}
  </ul>
);

/** The tree of all partners: line 1 first, each partner's team opens on tap, their profile beside it. */
export const StructureScreen = () => {
  const { t } = useTranslation();
  const root = useChildren(undefined, true);
  const [profile, setProfile] = useState<number | null>(null);
  return (
    <Screen back title={t('structure.title')} subtitle={t('structure.hint')}>
      <QueryView
        query={root}
        loading={<SkeletonRows rows={5} />}
        isEmpty={(nodes) => nodes.length === 0}
        empty={
          <Card>
            <EmptyState title={t('structure.empty')} />
          </Card>
        }
      >
        {(nodes) => (
          <Card flush>
            <Tree nodes={nodes} onProfile={setProfile} />
          </Card>
        )}
      </QueryView>
      {profile === null ? null : <PartnerProfileDialog uid={profile} onClose={() => setProfile(null)} />}
    </Screen>
  );
};
